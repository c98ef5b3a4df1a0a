package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.catalog.CatalogService;
import dev.tidings.catalog.Product;
import dev.tidings.cli.UsageException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo's shop from a product feed ({@code tidings demo --feed FILE}): the generated subscribers stay,
 * and their follows and week of activity are moved onto the feed's products and brands, each generated
 * product id and brand onto one of the feed's (the same one every time, so the generated tastes keep their
 * shape). Follows of categories are moved onto the feed's categories, or dropped when it has none.
 */
final class DemoFeed {
  private final List<Product> products;
  private final List<String> brands;
  private final List<String> categories;

  DemoFeed(List<Product> products) {
    this.products = products;
    var brandSet = new TreeSet<String>();
    var categorySet = new TreeSet<String>();
    for (Product product : products) {
      product.brand().ifPresent(brandSet::add);
      product.category().ifPresent(categorySet::add);
    }
    this.brands = List.copyOf(brandSet);
    this.categories = List.copyOf(categorySet);
  }

  /** The catalogue as the feed's import left it, read page by page in id order. */
  static DemoFeed of(CatalogService catalog) {
    var all = new ArrayList<Product>();
    Optional<String> after = Optional.empty();
    while (true) {
      var page = catalog.list(after, CatalogService.MAX_PAGE);
      all.addAll(page);
      if (page.size() < CatalogService.MAX_PAGE) break;
      after = Optional.of(page.getLast().id());
    }
    if (all.isEmpty()) throw new UsageException("the feed has no product the demo could use");
    return new DemoFeed(all);
  }

  int size() {
    return products.size();
  }

  /** Rewrites a generated follows file (JSON Lines) onto the feed's brands and categories. */
  void moveFollows(Path generated, Path moved) {
    rewrite(generated, moved, follow -> {
      String type = follow.path("targetType").asString();
      String target = follow.path("targetId").asString();
      List<String> onto = switch (type) {
        case "brand" -> brands;
        case "category" -> categories;
        default -> List.of(target);
      };
      if (onto.isEmpty()) return false;
      follow.put("targetId", pick(onto, target));
      return true;
    });
  }

  /** Rewrites a generated events file (JSON Lines) onto the feed's products and their prices. */
  void moveEvents(Path generated, Path moved) {
    rewrite(generated, moved, event -> {
      if (event.hasNonNull("itemId")) {
        Product product = pick(products, event.path("itemId").asString());
        event.put("itemId", product.id());
        if (event.has("price")) event.put("price", product.currentPrice().toPlainString());
      }
      return true;
    });
  }

  private static <T> T pick(List<T> onto, String generated) {
    return onto.get(Math.floorMod(generated.hashCode(), onto.size()));
  }

  private interface Move {
    /** Changes the row in place; false drops it. */
    boolean apply(ObjectNode row);
  }

  private static void rewrite(Path from, Path to, Move move) {
    try (BufferedReader in = Files.newBufferedReader(from, StandardCharsets.UTF_8);
        BufferedWriter out = Files.newBufferedWriter(to, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) continue;
        var row = (ObjectNode) Json.MAPPER.readTree(line);
        if (!move.apply(row)) continue;
        out.write(Json.MAPPER.writeValueAsString(row));
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + from + " onto the feed", e);
    }
  }
}
