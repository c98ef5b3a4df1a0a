package dev.tidings.web.dashboard;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.campaign.editor.Block;
import dev.tidings.campaign.editor.CampaignBlocks;
import java.util.List;
import java.util.Optional;

/**
 * The editor's "Add a block" fields, made into the campaign capability's blocks as the API makes them
 * from JSON, so a block refused there is refused here with the same words.
 */
final class BlockForm {
  private BlockForm() {}

  /** What a block adds to the HTML and the text, and the slots or digest it needs. */
  record Added(String html, String text, Optional<Integer> slots, boolean digest) {}

  static final List<Option> KINDS = List.of(
      new Option("slots", "Open-time product slots", false),
      new Option("button", "A button", false),
      new Option("digest", "A digest section", false),
      new Option("unsubscribe", "An unsubscribe footer", false));

  /** @throws InvalidInputException naming the field that is wrong */
  static Added make(FormFields.Fields fields) {
    String kind = fields.get("block");
    var json = Json.MAPPER.createObjectNode().put("type", kind);
    switch (kind) {
      case "slots" -> {
        String count = fields.get("blockCount").trim();
        try {
          json.put("count", Integer.parseInt(count));
        } catch (NumberFormatException e) {
          throw new InvalidInputException(
              "blockCount: the number of products must be a whole number, not '" + count + "'");
        }
      }
      case "button" ->
        json.put("label", fields.get("blockLabel"))
            .put("url", fields.get("blockUrl").trim());
      default -> {}
    }
    Block block = CampaignBlocks.fromJson(json);
    var snippet = CampaignBlocks.snippet(block);
    return new Added(
        snippet.html(),
        snippet.text(),
        block instanceof Block.Slots slots ? Optional.of(slots.count()) : Optional.empty(),
        block instanceof Block.Digest);
  }
}
