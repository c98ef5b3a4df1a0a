package dev.tidings.sample;

import java.util.List;
import java.util.SplittableRandom;

/** Where subscribers live, and what they are called there. */
final class Places {
  private Places() {}

  record City(String name, String timeZone, double latitude, double longitude) {}

  record Region(
      String locale,
      String country,
      int weight,
      List<City> cities,
      List<String> firstNames,
      List<String> lastNames) {}

  private static final List<String> ENGLISH_FIRST = List.of(
      "Olivia", "Amelia", "Oliver", "Harry", "Isla", "George", "Emily", "Jack", "Sophie", "Noah",
      "Ava", "James", "Zoë", "Chloé");
  private static final List<String> ENGLISH_LAST = List.of(
      "Smith",
      "Jones",
      "Taylor",
      "Brown",
      "Williams",
      "Wilson",
      "Johnson",
      "Davies",
      "Evans",
      "O'Brien",
      "Clarke",
      "Walker");

  static final List<Region> REGIONS = List.of(
      new Region(
          "de-DE",
          "DE",
          16,
          List.of(
              new City("Berlin", "Europe/Berlin", 52.5200, 13.4050),
              new City("Hamburg", "Europe/Berlin", 53.5511, 9.9937),
              new City("München", "Europe/Berlin", 48.1372, 11.5756),
              new City("Köln", "Europe/Berlin", 50.9375, 6.9603)),
          List.of(
              "Lena",
              "Jonas",
              "Mia",
              "Lukas",
              "Hannah",
              "Felix",
              "Sophie",
              "Maximilian",
              "Jürgen",
              "Anja",
              "Björn",
              "Käthe"),
          List.of(
              "Müller",
              "Schmidt",
              "Schneider",
              "Fischer",
              "Weber",
              "Wagner",
              "Becker",
              "Hoffmann",
              "Schäfer",
              "Köhler")),
      new Region(
          "fr-FR",
          "FR",
          12,
          List.of(
              new City("Paris", "Europe/Paris", 48.8566, 2.3522),
              new City("Lyon", "Europe/Paris", 45.7640, 4.8357),
              new City("Marseille", "Europe/Paris", 43.2965, 5.3698),
              new City("Bordeaux", "Europe/Paris", 44.8378, -0.5792)),
          List.of(
              "Camille", "Léa", "Hugo", "Chloé", "Louis", "Manon", "Théo", "Élodie", "Gaël",
              "Inès"),
          List.of(
              "Martin",
              "Bernard",
              "Dubois",
              "Lefèvre",
              "Moreau",
              "Laurent",
              "Girard",
              "Rousseau",
              "Fontaine",
              "Chevalier")),
      new Region(
          "en-GB",
          "GB",
          12,
          List.of(
              new City("London", "Europe/London", 51.5072, -0.1276),
              new City("Manchester", "Europe/London", 53.4808, -2.2426),
              new City("Edinburgh", "Europe/London", 55.9533, -3.1883)),
          ENGLISH_FIRST,
          ENGLISH_LAST),
      new Region(
          "en-US",
          "US",
          18,
          List.of(
              new City("New York", "America/New_York", 40.7128, -74.0060),
              new City("Chicago", "America/Chicago", 41.8781, -87.6298),
              new City("Los Angeles", "America/Los_Angeles", 34.0522, -118.2437),
              new City("Denver", "America/Denver", 39.7392, -104.9903)),
          ENGLISH_FIRST,
          ENGLISH_LAST),
      new Region(
          "es-ES",
          "ES",
          8,
          List.of(
              new City("Madrid", "Europe/Madrid", 40.4168, -3.7038),
              new City("Barcelona", "Europe/Madrid", 41.3851, 2.1734),
              new City("Valencia", "Europe/Madrid", 39.4699, -0.3763)),
          List.of(
              "Lucía", "Sofía", "Martín", "Hugo", "Paula", "Álvaro", "Daniela", "Javier", "Nuria",
              "Iñaki"),
          List.of(
              "García",
              "Fernández",
              "González",
              "Rodríguez",
              "López",
              "Martínez",
              "Sánchez",
              "Pérez",
              "Gómez",
              "Muñoz")),
      new Region(
          "it-IT",
          "IT",
          7,
          List.of(
              new City("Milano", "Europe/Rome", 45.4642, 9.1900),
              new City("Roma", "Europe/Rome", 41.9028, 12.4964),
              new City("Torino", "Europe/Rome", 45.0703, 7.6869)),
          List.of(
              "Giulia",
              "Francesco",
              "Sofia",
              "Alessandro",
              "Aurora",
              "Lorenzo",
              "Chiara",
              "Matteo",
              "Niccolò"),
          List.of(
              "Rossi",
              "Russo",
              "Ferrari",
              "Esposito",
              "Bianchi",
              "Romano",
              "Colombo",
              "Ricci",
              "Marino",
              "De Luca")),
      new Region(
          "nl-NL",
          "NL",
          6,
          List.of(
              new City("Amsterdam", "Europe/Amsterdam", 52.3676, 4.9041),
              new City("Rotterdam", "Europe/Amsterdam", 51.9244, 4.4777),
              new City("Utrecht", "Europe/Amsterdam", 52.0907, 5.1214)),
          List.of("Emma", "Daan", "Julia", "Sem", "Tess", "Lars", "Fenna", "Bram", "Sanne"),
          List.of(
              "de Jong",
              "Jansen",
              "de Vries",
              "van den Berg",
              "van Dijk",
              "Bakker",
              "Visser",
              "Smit",
              "Meijer")),
      new Region(
          "pl-PL",
          "PL",
          5,
          List.of(
              new City("Warszawa", "Europe/Warsaw", 52.2297, 21.0122),
              new City("Kraków", "Europe/Warsaw", 50.0647, 19.9450),
              new City("Gdańsk", "Europe/Warsaw", 54.3520, 18.6466)),
          List.of(
              "Zuzanna",
              "Jakub",
              "Julia",
              "Antoni",
              "Łukasz",
              "Małgorzata",
              "Wojciech",
              "Agnieszka"),
          List.of(
              "Nowak",
              "Kowalski",
              "Wiśniewski",
              "Wójcik",
              "Kowalczyk",
              "Kamiński",
              "Lewandowski",
              "Zieliński")),
      new Region(
          "sv-SE",
          "SE",
          4,
          List.of(
              new City("Stockholm", "Europe/Stockholm", 59.3293, 18.0686),
              new City("Göteborg", "Europe/Stockholm", 57.7089, 11.9746),
              new City("Malmö", "Europe/Stockholm", 55.6050, 13.0038)),
          List.of("Alice", "William", "Maja", "Elias", "Astrid", "Oskar", "Saga", "Björn"),
          List.of(
              "Andersson",
              "Johansson",
              "Karlsson",
              "Nilsson",
              "Eriksson",
              "Larsson",
              "Öberg",
              "Lindqvist")),
      new Region(
          "da-DK",
          "DK",
          3,
          List.of(
              new City("København", "Europe/Copenhagen", 55.6761, 12.5683),
              new City("Aarhus", "Europe/Copenhagen", 56.1629, 10.2039)),
          List.of("Freja", "Søren", "Ida", "Magnus", "Astrid", "Mads", "Signe"),
          List.of(
              "Nielsen", "Jensen", "Hansen", "Pedersen", "Andersen", "Christensen", "Sørensen")),
      new Region(
          "ja-JP",
          "JP",
          4,
          List.of(
              new City("Tokyo", "Asia/Tokyo", 35.6762, 139.6503),
              new City("Osaka", "Asia/Tokyo", 34.6937, 135.5023)),
          List.of("Haruto", "Yui", "Sota", "Hina", "Ren", "Aoi", "Yuki", "Sakura"),
          List.of(
              "Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura")),
      new Region(
          "pt-BR",
          "BR",
          3,
          List.of(
              new City("São Paulo", "America/Sao_Paulo", -23.5505, -46.6333),
              new City("Rio de Janeiro", "America/Sao_Paulo", -22.9068, -43.1729)),
          List.of("Ana", "João", "Maria", "Gabriel", "Beatriz", "Lucas", "Júlia", "Rafael"),
          List.of(
              "Silva", "Santos", "Oliveira", "Souza", "Pereira", "Costa", "Conceição", "Araújo")),
      new Region(
          "en-AU",
          "AU",
          2,
          List.of(
              new City("Sydney", "Australia/Sydney", -33.8688, 151.2093),
              new City("Melbourne", "Australia/Melbourne", -37.8136, 144.9631)),
          ENGLISH_FIRST,
          ENGLISH_LAST));

  private static final int TOTAL_WEIGHT =
      REGIONS.stream().mapToInt(Region::weight).sum();

  static Region region(SplittableRandom random) {
    int ticket = random.nextInt(TOTAL_WEIGHT);
    for (Region region : REGIONS) {
      ticket -= region.weight();
      if (ticket < 0) return region;
    }
    throw new AssertionError("weights cover every ticket");
  }
}
