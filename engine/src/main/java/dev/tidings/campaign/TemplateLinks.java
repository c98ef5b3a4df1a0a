package dev.tidings.campaign;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The absolute http(s) URLs a campaign's HTML names in its own text (links and pictures), in every
 * variant: what the catalogue matches against its products' landing and image URLs to learn which
 * products an email shows by its template, so that its slots do not show them again. Mustache tags inside
 * a URL make it the subscriber's own, so such a URL names no product and is left out.
 */
public final class TemplateLinks {
  /** A quoted attribute value that starts with http(s)://: href, src and their likes. */
  private static final Pattern QUOTED_URL =
      Pattern.compile("(?i)=\\s*([\"'])(https?://[^\"'\\s<>]{1,2000})\\1");

  /** More than a template names; the rest are left out rather than make one lookup huge. */
  static final int MAX_URLS = 1_000;

  private TemplateLinks() {}

  public static Set<String> urls(CampaignDefinition definition) {
    Set<String> urls = new LinkedHashSet<>();
    add(definition.html(), urls);
    definition
        .experiment()
        .ifPresent(experiment -> experiment
            .variants()
            .forEach(variant -> variant.html().ifPresent(html -> add(html, urls))));
    return urls;
  }

  /** The URLs one HTML source names. */
  public static Set<String> inHtml(String html) {
    Set<String> urls = new LinkedHashSet<>();
    add(html, urls);
    return urls;
  }

  private static void add(String html, Set<String> urls) {
    Matcher found = QUOTED_URL.matcher(html);
    while (found.find() && urls.size() < MAX_URLS) {
      String url = found.group(2).replace("&amp;", "&");
      if (!url.contains("{{")) urls.add(url);
    }
  }
}
