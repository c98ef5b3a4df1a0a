package dev.tidings.sample;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The invented shop: brands, the category tree, and the words product titles are made of. */
final class Catalog {
  private Catalog() {}

  record Brand(String name, String currency, double priceTier, Set<String> departments) {}

  /** A leaf of the category tree, with what its products are called and cost (in EUR). */
  record Leaf(
      String path,
      List<String> nouns,
      List<String> materials,
      int minEur,
      int maxEur,
      List<String> sizes,
      boolean coloured) {
    String department() {
      return path.substring(0, path.indexOf('/'));
    }
  }

  private static final List<String> APPAREL = List.of("XS–XL");
  private static final List<String> MEN_APPAREL = List.of("S–XXL");

  static final List<Leaf> LEAVES = List.of(
      new Leaf(
          "women/shoes/sneakers",
          List.of("Sneaker", "Trainer", "Low-Top Sneaker"),
          List.of("Leather", "Suede", "Canvas", "Knit"),
          59,
          189,
          List.of("EU 36–42"),
          true),
      new Leaf(
          "women/shoes/boots",
          List.of("Ankle Boot", "Chelsea Boot", "Knee-High Boot"),
          List.of("Leather", "Suede"),
          89,
          329,
          List.of("EU 36–42"),
          true),
      new Leaf(
          "women/dresses/midi",
          List.of("Midi Dress", "Wrap Dress", "Slip Dress"),
          List.of("Linen", "Silk", "Viscose", "Cotton"),
          49,
          259,
          APPAREL,
          true),
      new Leaf(
          "women/knitwear/sweaters",
          List.of("Sweater", "Cardigan", "Turtleneck"),
          List.of("Merino", "Cashmere", "Cotton", "Alpaca"),
          39,
          299,
          APPAREL,
          true),
      new Leaf(
          "women/bags/totes",
          List.of("Tote", "Shopper", "Crossbody Bag"),
          List.of("Leather", "Canvas", "Nylon"),
          39,
          449,
          List.of("one size"),
          true),
      new Leaf(
          "women/outerwear/coats",
          List.of("Coat", "Trench Coat", "Puffer Jacket"),
          List.of("Wool", "Cotton Gabardine", "Recycled Nylon"),
          119,
          549,
          APPAREL,
          true),
      new Leaf(
          "men/outerwear/jackets",
          List.of("Jacket", "Field Jacket", "Bomber Jacket", "Overshirt"),
          List.of("Waxed Cotton", "Denim", "Wool", "Recycled Nylon"),
          89,
          449,
          MEN_APPAREL,
          true),
      new Leaf(
          "men/shirts/oxford",
          List.of("Oxford Shirt", "Button-Down Shirt", "Shirt"),
          List.of("Cotton", "Linen", "Flannel"),
          39,
          149,
          MEN_APPAREL,
          true),
      new Leaf(
          "men/trousers/chinos",
          List.of("Chinos", "Trousers", "Cargo Trousers"),
          List.of("Cotton Twill", "Wool", "Corduroy"),
          49,
          189,
          List.of("W28–W38"),
          true),
      new Leaf(
          "men/shoes/loafers",
          List.of("Loafer", "Derby", "Oxford Shoe"),
          List.of("Leather", "Suede"),
          89,
          349,
          List.of("EU 40–46"),
          true),
      new Leaf(
          "men/knitwear/sweaters",
          List.of("Sweater", "Crew Neck", "Zip Cardigan"),
          List.of("Merino", "Lambswool", "Cotton"),
          49,
          249,
          MEN_APPAREL,
          true),
      new Leaf(
          "kids/clothing/tops",
          List.of("T-Shirt", "Hoodie", "Sweatshirt"),
          List.of("Organic Cotton", "Fleece"),
          12,
          59,
          List.of("98–152"),
          true),
      new Leaf(
          "kids/toys/plush",
          List.of("Plush Bear", "Plush Fox", "Soft Toy"),
          List.of("Organic Cotton", "Recycled Polyester"),
          14,
          49,
          List.of("one size"),
          true),
      new Leaf(
          "home/kitchen/cookware",
          List.of("Frying Pan", "Dutch Oven", "Saucepan"),
          List.of("Cast Iron", "Stainless Steel", "Carbon Steel"),
          29,
          289,
          List.of("20 cm", "24 cm", "28 cm"),
          false),
      new Leaf(
          "home/kitchen/knives",
          List.of("Chef's Knife", "Santoku Knife", "Bread Knife"),
          List.of("Damascus Steel", "Stainless Steel"),
          39,
          249,
          List.of("18 cm", "21 cm"),
          false),
      new Leaf(
          "home/living/cushions",
          List.of("Cushion Cover", "Throw", "Cushion"),
          List.of("Linen", "Wool", "Velvet"),
          19,
          129,
          List.of("40×40 cm", "50×50 cm"),
          true),
      new Leaf(
          "home/living/lamps",
          List.of("Table Lamp", "Floor Lamp", "Pendant Light"),
          List.of("Brass", "Ceramic", "Oak", "Rattan"),
          49,
          399,
          List.of("one size"),
          false),
      new Leaf(
          "home/bath/towels",
          List.of("Bath Towel", "Hand Towel", "Bathrobe"),
          List.of("Organic Cotton", "Waffle Cotton", "Linen"),
          15,
          119,
          List.of("one size"),
          true),
      new Leaf(
          "beauty/skincare/serums",
          List.of("Serum", "Face Oil", "Night Cream"),
          List.of("Vitamin C", "Hyaluronic", "Retinol", "Rosehip"),
          18,
          89,
          List.of("30 ml", "50 ml"),
          false),
      new Leaf(
          "beauty/fragrance/eau-de-parfum",
          List.of("Eau de Parfum", "Eau de Toilette"),
          List.of("Vetiver", "Fig", "Amber", "Neroli"),
          45,
          189,
          List.of("50 ml", "100 ml"),
          false),
      new Leaf(
          "sport/running/shoes",
          List.of("Running Shoe", "Trail Runner"),
          List.of("Mesh", "Recycled Knit"),
          79,
          219,
          List.of("EU 36–46"),
          true),
      new Leaf(
          "sport/yoga/mats",
          List.of("Yoga Mat", "Yoga Block"),
          List.of("Natural Rubber", "Cork"),
          19,
          119,
          List.of("one size"),
          true));

  static final List<Brand> BRANDS = List.of(
      new Brand("Northwind Atelier", "EUR", 1.3, Set.of("women", "men")),
      new Brand("Maison Lune", "EUR", 1.5, Set.of("women", "beauty")),
      new Brand("Fjellbrook", "EUR", 1.1, Set.of("men", "sport")),
      new Brand("Calder & Wren", "GBP", 1.2, Set.of("women", "men")),
      new Brand("Osterhaus", "EUR", 1.0, Set.of("home")),
      new Brand("Blue Heron Supply", "USD", 1.0, Set.of("men")),
      new Brand("Velin", "EUR", 0.9, Set.of("women")),
      new Brand("Kestrel Outdoor", "GBP", 1.2, Set.of("men", "sport")),
      new Brand("Atelier Sève", "EUR", 1.6, Set.of("beauty")),
      new Brand("Marlow Street", "GBP", 1.0, Set.of("women", "men")),
      new Brand("Tessaro", "EUR", 1.4, Set.of("women")),
      new Brand("Solvind", "EUR", 0.9, Set.of("home")),
      new Brand("Ironbark Kitchen", "USD", 1.1, Set.of("home")),
      new Brand("Casa Olmo", "EUR", 1.0, Set.of("home")),
      new Brand("Hollis & Pike", "GBP", 1.3, Set.of("men")),
      new Brand("Nordlicht", "EUR", 0.9, Set.of("home", "kids")),
      new Brand("Bramble Kids", "GBP", 0.8, Set.of("kids")),
      new Brand("Sora Studio", "USD", 1.2, Set.of("women", "home")),
      new Brand("Ember & Oak", "USD", 1.1, Set.of("home")),
      new Brand("Lumen Home", "EUR", 1.0, Set.of("home")),
      new Brand("Petit Nuage", "EUR", 0.9, Set.of("kids")),
      new Brand("Arden Field", "GBP", 1.1, Set.of("women", "men")),
      new Brand("Graywater", "USD", 1.0, Set.of("men")),
      new Brand("Mistral Paris", "EUR", 1.5, Set.of("women", "beauty")),
      new Brand("Haldenwick", "EUR", 1.0, Set.of("men", "women")),
      new Brand("Tidewell", "GBP", 0.9, Set.of("home")),
      new Brand("Copperleaf", "USD", 1.2, Set.of("home")),
      new Brand("Saltmarsh", "GBP", 1.0, Set.of("women")),
      new Brand("Verano Sol", "EUR", 0.85, Set.of("women", "sport")),
      new Brand("Linnea Botanics", "EUR", 1.0, Set.of("beauty")),
      new Brand("Stonecrop", "USD", 1.1, Set.of("men")),
      new Brand("Aurelle", "EUR", 1.4, Set.of("women", "beauty")),
      new Brand("Fernhill", "GBP", 1.0, Set.of("kids", "home")),
      new Brand("Quill & Moss", "GBP", 1.2, Set.of("home")),
      new Brand("Rovena", "EUR", 1.1, Set.of("women")),
      new Brand("Brightwell Sport", "USD", 1.0, Set.of("sport")),
      new Brand("Peak & Pine", "USD", 1.1, Set.of("sport", "men")),
      new Brand("Oakhurst Mercantile", "USD", 1.2, Set.of("men", "home")),
      new Brand("Zephyr Run", "EUR", 1.0, Set.of("sport")),
      new Brand("Clementine Beauty", "GBP", 0.9, Set.of("beauty")));

  static final List<String> COLOURS = List.of(
      "Black",
      "Ivory",
      "Navy",
      "Sage",
      "Terracotta",
      "Camel",
      "Charcoal",
      "Olive",
      "Dusty Rose",
      "Cobalt",
      "Sand",
      "Forest Green",
      "Burgundy",
      "Oat",
      "Slate Blue",
      "Mustard");

  static final List<String> APPAREL_ADJECTIVES = List.of(
      "Relaxed",
      "Classic",
      "Everyday",
      "Tailored",
      "Oversized",
      "Cropped",
      "Heritage",
      "Minimal",
      "Soft",
      "Structured",
      "Lightweight",
      "Cosy",
      "Essential",
      "Ribbed",
      "Quilted");
  static final List<String> HOME_ADJECTIVES = List.of(
      "Handmade",
      "Nordic",
      "Rustic",
      "Professional",
      "Modern",
      "Artisan",
      "Classic",
      "Compact",
      "Heirloom",
      "Everyday");
  static final List<String> BEAUTY_ADJECTIVES = List.of(
      "Hydrating", "Brightening", "Calming", "Nourishing", "Fresh", "Warm", "Restoring", "Gentle");
  static final List<String> SPORT_ADJECTIVES =
      List.of("Responsive", "Lightweight", "Cushioned", "Grippy", "Breathable", "Durable");

  static List<String> adjectivesFor(String department) {
    return switch (department) {
      case "home" -> HOME_ADJECTIVES;
      case "beauty" -> BEAUTY_ADJECTIVES;
      case "sport" -> SPORT_ADJECTIVES;
      default -> APPAREL_ADJECTIVES;
    };
  }

  /** Category paths a subscriber can follow: every leaf and every inner node of the tree. */
  static final List<String> FOLLOWABLE_CATEGORIES = LEAVES.stream()
      .flatMap(leaf -> {
        String[] levels = leaf.path().split("/");
        return Stream.of(levels[0] + "/" + levels[1], leaf.path());
      })
      .distinct()
      .toList();
}
