package dev.tidings.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Simple, valid product and subscriber CSV files of any size, written row by row (for tests and benchmarks). */
public final class SampleFiles {
  private SampleFiles() {}

  public static Path products(Path file, int rows) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(
          "id,title,brand,category,price,currency,imageUrl,landingUrl,available,attributes\n");
      for (int i = 0; i < rows; i++) {
        out.write(String.format(
            Locale.ROOT,
            "p%d,\"Product %d, deluxe\",Brand %d,women/shoes/c%d,%d.%02d,EUR,https://img.example.com/p%d.jpg,"
                + "https://shop.example.com/p/%d,%s,\"{\"\"color\"\":\"\"c%d\"\"}\"\n",
            i,
            i,
            i % 500,
            i % 40,
            i % 300,
            i % 100,
            i,
            i,
            i % 10 == 0 ? "false" : "true",
            i % 12));
      }
    }
    return file;
  }

  public static Path subscribers(Path file, int rows) throws IOException {
    String[] zones = {"Europe/Berlin", "Europe/Paris", "America/New_York", "UTC"};
    String[] locales = {"de-DE", "fr-FR", "en-US", "en"};
    String[] countries = {"DE", "FR", "US", "GB"};
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("id,email,name,locale,timeZone,latitude,longitude,city,country,consent\n");
      for (int i = 0; i < rows; i++) {
        int k = i % 4;
        out.write(String.format(
            Locale.ROOT,
            "s%d,user%d@example.com,User %d,%s,%s,%d.%04d,%d.%04d,City %d,%s,%s\n",
            i,
            i,
            i,
            locales[k],
            zones[k],
            40 + i % 20,
            i % 10000,
            i % 30,
            i % 10000,
            i % 100,
            countries[k],
            i % 50 == 0 ? "pending" : "subscribed"));
      }
    }
    return file;
  }
}
