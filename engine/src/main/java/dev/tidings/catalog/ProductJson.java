package dev.tidings.catalog;

import dev.tidings.Json;
import dev.tidings.imports.JsonRows;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Products as JSON, field names as in the import format; reading applies the import's rules and messages. */
public final class ProductJson {
  private ProductJson() {}

  /** @throws dev.tidings.InvalidInputException listing every problem */
  public static Product fromJson(JsonNode node) {
    return JsonRows.read(node, ProductRows.INSTANCE);
  }

  /** @throws dev.tidings.InvalidInputException listing every problem */
  public static Product fromMap(Map<String, ?> map) {
    return JsonRows.readMap(map, ProductRows.INSTANCE);
  }

  public static ObjectNode toJson(Product product) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("id", product.id());
    node.put("title", product.title());
    product.brand().ifPresent(brand -> node.put("brand", brand));
    product.category().ifPresent(category -> node.put("category", category));
    node.put("price", product.price());
    product.salePrice().ifPresent(sale -> node.put("salePrice", sale));
    node.put("currency", product.currency().getCurrencyCode());
    // absent only in a row an earlier version stored with a URL today's rules refuse
    product.imageUrl().ifPresent(url -> node.put("imageUrl", url.value()));
    product.landingUrl().ifPresent(url -> node.put("landingUrl", url.value()));
    node.put("available", product.available());
    product.itemGroupId().ifPresent(group -> node.put("itemGroupId", group));
    ObjectNode attributes = node.putObject("attributes");
    product.attributes().forEach(attributes::put);
    return node;
  }
}
