package dev.tidings.campaign.editor;

import dev.tidings.Json;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignTemplates;
import dev.tidings.campaign.DigestOptions;
import dev.tidings.mail.Address;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The starter campaigns kept with Tidings under {@value #ROOT}: one folder per template, listed in
 * {@code index.txt}, each with {@code template.json} (title, description, subject, slots, digest),
 * {@code email.html} and {@code email.txt}. Read and compiled once, when this is built: a template that
 * does not compile is a broken build, refused at start rather than offered to an author.
 */
public final class CampaignTemplateLibrary {
  static final String ROOT = "/campaign-templates/";
  private static final Address CHECK_SENDER = new Address("news@shop.example", Optional.empty());

  private final List<StarterTemplate> templates;

  public CampaignTemplateLibrary() {
    List<StarterTemplate> read = new ArrayList<>();
    for (String name : resource("index.txt").lines().map(String::strip).toList())
      if (!name.isEmpty()) read.add(checked(read(name)));
    this.templates = List.copyOf(read);
  }

  /** In the order the editor offers them. */
  public List<StarterTemplate> list() {
    return templates;
  }

  public Optional<StarterTemplate> get(String name) {
    return templates.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** The template as a definition's fields, for a draft to start from. */
  public static CampaignDefinition definition(StarterTemplate template, String name, Address from) {
    return new CampaignDefinition(
        name,
        from,
        Optional.empty(),
        template.subject(),
        template.html(),
        template.text(),
        new Audience.All(),
        template.slots(),
        CampaignJson.DEFAULT_PRIORITY,
        CampaignJson.DEFAULT_RATE,
        Optional.empty(),
        template.digest(),
        Optional.empty());
  }

  private static StarterTemplate read(String name) {
    JsonNode meta = Json.MAPPER.readTree(resource(name + "/template.json"));
    JsonNode digest = meta.get("digest");
    return new StarterTemplate(
        name,
        meta.path("title").asString(),
        meta.path("description").asString(),
        meta.path("subject").asString(),
        resource(name + "/email.html"),
        resource(name + "/email.txt"),
        meta.path("slots").asInt(0),
        digest == null
            ? Optional.empty()
            : Optional.of(new DigestOptions(
                digest.path("lookBackDays").asInt(DigestOptions.DEFAULT_LOOK_BACK_DAYS),
                digest.path("minimum").asInt(1))));
  }

  private static StarterTemplate checked(StarterTemplate template) {
    try {
      CampaignTemplates.compile(definition(template, template.title(), CHECK_SENDER));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "starter template " + template.name() + " does not compile: " + e.getMessage(), e);
    }
    return template;
  }

  private static String resource(String path) {
    try (InputStream in = CampaignTemplateLibrary.class.getResourceAsStream(ROOT + path)) {
      if (in == null) throw new IllegalStateException("missing resource " + ROOT + path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
