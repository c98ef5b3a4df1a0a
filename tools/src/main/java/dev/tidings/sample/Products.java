package dev.tidings.sample;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Product number i of a spec, computable on its own. Brand popularity rank r owns the products i with i % 40 == r. */
final class Products {
  static final List<String> COLUMNS = List.of(
      "id",
      "title",
      "brand",
      "category",
      "price",
      "currency",
      "imageUrl",
      "landingUrl",
      "available",
      "attributes");

  record Product(
      String id,
      String title,
      Catalog.Brand brand,
      Catalog.Leaf leaf,
      BigDecimal price,
      boolean available,
      Map<String, String> attributes) {}

  private final SampleShopSpec spec;
  private final String imageBase;
  private final List<Catalog.Brand> brandsByPopularity;
  private final List<List<Catalog.Leaf>> leavesByBrand;

  Products(SampleShopSpec spec) {
    this.spec = spec;
    this.imageBase = spec.baseUrl() + "/sample/images/";
    this.brandsByPopularity = brandsByPopularity(spec.seed());
    this.leavesByBrand = brandsByPopularity.stream()
        .map(brand -> Catalog.LEAVES.stream()
            .filter(leaf -> brand.departments().contains(leaf.department()))
            .toList())
        .toList();
  }

  /** The brands, most popular first: a seeded shuffle, so each seed has its own favourites. */
  static List<Catalog.Brand> brandsByPopularity(long seed) {
    var brands = new ArrayList<>(Catalog.BRANDS);
    var random = Rng.of(seed, Rng.BRAND_ORDER, 0);
    for (int i = brands.size() - 1; i > 0; i--) Collections.swap(brands, i, random.nextInt(i + 1));
    return List.copyOf(brands);
  }

  List<Catalog.Brand> brandsByPopularity() {
    return brandsByPopularity;
  }

  static String id(long index) {
    return "p-" + index;
  }

  Product product(long index) {
    SplittableRandom random = Rng.of(spec.seed(), Rng.PRODUCT, index);
    int brandRank = (int) (index % brandsByPopularity.size());
    Catalog.Brand brand = brandsByPopularity.get(brandRank);
    Catalog.Leaf leaf = Rng.pick(random, leavesByBrand.get(brandRank));
    String adjective = Rng.pick(random, Catalog.adjectivesFor(leaf.department()));
    String material = Rng.pick(random, leaf.materials());
    String noun = Rng.pick(random, leaf.nouns());
    String colour = leaf.coloured() ? Rng.pick(random, Catalog.COLOURS) : null;
    String title =
        adjective + " " + material + " " + noun + (colour == null ? "" : " in " + colour);

    var attributes = new LinkedHashMap<String, String>();
    if (colour != null) attributes.put("colour", colour);
    attributes.put("size", Rng.pick(random, leaf.sizes()));
    attributes.put("material", material);
    boolean available = random.nextDouble() >= 0.05;
    return new Product(
        id(index), title, brand, leaf, price(random, leaf, brand), available, attributes);
  }

  private static BigDecimal price(SplittableRandom random, Catalog.Leaf leaf, Catalog.Brand brand) {
    // Log-uniform within the category's range: many affordable items, a few expensive ones.
    double eur = Math.exp(Math.log(leaf.minEur())
        + random.nextDouble() * (Math.log(leaf.maxEur()) - Math.log(leaf.minEur())));
    double amount = eur
        * brand.priceTier()
        * switch (brand.currency()) {
          case "GBP" -> 0.86;
          case "USD" -> 1.09;
          default -> 1.0;
        };
    long whole = Math.max(1, (long) amount);
    double ending = random.nextDouble();
    long cents;
    if (ending < 0.55) cents = 99;
    else if (ending < 0.8) cents = 95;
    else {
      cents = 0;
      if (whole >= 20)
        whole = Math.max(20, Math.round(whole / 5.0) * 5); // round prices end in 0 or 5
    }
    return BigDecimal.valueOf(whole * 100 + cents, 2);
  }

  Object[] row(Product product) {
    return new Object[] {
      product.id(),
      product.title(),
      product.brand().name(),
      product.leaf().path(),
      product.price(),
      product.brand().currency(),
      imageBase + product.id() + ".png",
      "https://shop.example/p/" + product.id(),
      product.available(),
      product.attributes()
    };
  }
}
