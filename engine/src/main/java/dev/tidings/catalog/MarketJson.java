package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problems;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Markets and price lists as JSON: {@code {"code": "GB", "currency": "GBP", "locale": "en-GB",
 * "countries": ["GB"], "default": false}} and {@code {"GB": "12.99", "DE": "14.95"}}. Reading reports
 * every problem, each naming its field.
 */
public final class MarketJson {
  /** More markets than a price list names. */
  static final int MAX_PRICES = 300;

  private MarketJson() {}

  /** @throws InvalidInputException listing every problem */
  public static Market fromJson(String code, JsonNode node) {
    var problems = new Problems();
    if (!(node instanceof ObjectNode))
      throw new InvalidInputException("the body must be a JSON object");
    JsonNode given = node.get("code");
    if (JsonFields.given(given) && !(given.isString() && given.stringValue().equals(code)))
      problems.add("code in the body differs from the code in the path (" + code + ")");
    String currencyCode = JsonFields.string(problems, node.get("currency"), "currency");
    Currency currency = null;
    if (currencyCode != null) {
      try {
        currency = Currency.getInstance(currencyCode);
      } catch (IllegalArgumentException e) {
        problems.add(
            "currency must be an ISO 4217 code such as EUR, got " + Problems.quote(currencyCode));
      }
    }
    String tag = JsonFields.string(problems, node.get("locale"), "locale");
    Locale locale = Market.parseLocale(tag);
    if (tag != null && locale == null)
      problems.add(
          "locale must be a BCP 47 language tag such as en-GB, got " + Problems.quote(tag));
    List<String> countries = new ArrayList<>();
    JsonNode list = node.get("countries");
    if (JsonFields.given(list)) {
      if (!list.isArray()) problems.add("countries must be an array of country codes");
      else if (list.size() > Market.MAX_COUNTRIES)
        problems.add("countries must list at most " + Market.MAX_COUNTRIES + " codes");
      else
        for (JsonNode country : list) {
          // a null in the list is no code: named, not dropped in silence
          String text = JsonFields.string(problems, country, "countries[]");
          if (text != null) countries.add(text);
          else if (!JsonFields.given(country))
            problems.add("countries[] must be a string, got null");
        }
    }
    Boolean isDefault = JsonFields.bool(problems, node.get("default"), "default");
    Currency finalCurrency = currency;
    return problems.build(() -> new Market(
        code,
        Problems.toValidate(finalCurrency),
        Problems.toValidate(locale),
        countries,
        isDefault != null && isDefault));
  }

  public static ObjectNode toJson(Market market) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    node.put("code", market.code());
    node.put("currency", market.currency().getCurrencyCode());
    node.put("locale", market.locale().toLanguageTag());
    var countries = node.putArray("countries");
    market.countries().forEach(countries::add);
    node.put("default", market.isDefault());
    return node;
  }

  /**
   * A price list: market codes to prices, each a decimal string or number (a string keeps its decimals
   * exactly).
   *
   * @throws InvalidInputException listing every problem
   */
  public static Map<String, BigDecimal> pricesFromJson(JsonNode node) {
    if (!(node instanceof ObjectNode object))
      throw new InvalidInputException("prices must be an object of market codes to prices");
    var problems = new Problems();
    if (object.size() > MAX_PRICES)
      throw new InvalidInputException("prices must name at most " + MAX_PRICES + " markets");
    Map<String, BigDecimal> prices = new LinkedHashMap<>();
    for (var entry : object.properties()) {
      String field = "prices." + Problems.printable(entry.getKey());
      if (!Market.isCode(entry.getKey())) {
        problems.add(
            field + ": a market code is 2-16 characters of A-Z 0-9 _ starting with a letter");
        continue;
      }
      JsonNode value = entry.getValue();
      try {
        BigDecimal price;
        if (value.isString()) price = new BigDecimal(value.stringValue());
        else if (value.isNumber()) price = value.decimalValue();
        else {
          problems.add(
              field + " must be a decimal such as \"12.99\", got " + JsonFields.kind(value));
          continue;
        }
        // "1e999999" is short text for a number no price is:
        // bound its digits before anything uses it
        if (!Money.withinBound(price)) {
          problems.add(Money.tooManyDigits(field));
          continue;
        }
        prices.put(entry.getKey(), price);
      } catch (NumberFormatException e) {
        problems.add(
            field + " must be a decimal such as \"12.99\", got " + JsonFields.shown(value));
      }
    }
    problems.throwIfAny();
    return prices;
  }

  public static ObjectNode pricesToJson(Map<String, BigDecimal> prices) {
    ObjectNode node = Json.MAPPER.createObjectNode();
    prices.forEach((code, price) -> node.put(code, price.toPlainString()));
    return node;
  }
}
