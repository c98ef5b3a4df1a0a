package dev.tidings.catalog;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.JsonFields;
import dev.tidings.Problem;
import dev.tidings.Problems;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  private static final Pattern COUNTRY = Pattern.compile("countries\\[(\\d+)]");

  private MarketJson() {}

  /** @throws InvalidInputException listing every problem */
  public static Market fromJson(String code, JsonNode node) {
    var problems = new Problems();
    if (!(node instanceof ObjectNode))
      throw new InvalidInputException(Problem.format("", "the body must be a JSON object"));
    JsonNode given = node.get("code");
    if (JsonFields.given(given) && !(given.isString() && given.stringValue().equals(code)))
      problems.add(Problem.at(
          "code",
          Problem.Rule.OTHER,
          "code in the body differs from the code in the path (" + code + ")"));
    String currencyCode = JsonFields.string(problems, node.get("currency"), "currency");
    Currency currency = null;
    if (currencyCode != null) {
      try {
        currency = Currency.getInstance(currencyCode);
      } catch (IllegalArgumentException e) {
        problems.add(Problem.unknown(
            "currency",
            "currency must be an ISO 4217 code such as EUR, got " + Problems.quote(currencyCode)));
      }
    }
    String tag = JsonFields.string(problems, node.get("locale"), "locale");
    Locale locale = Market.parseLocale(tag);
    if (tag != null && locale == null)
      problems.add(Problem.format(
          "locale",
          "locale must be a BCP 47 language tag such as en-GB, got " + Problems.quote(tag)));
    List<String> countries = new ArrayList<>();
    // where each of them was in the list sent, which may hold more than strings
    List<Integer> sentAt = new ArrayList<>();
    JsonNode list = node.get("countries");
    if (JsonFields.given(list)) {
      if (!list.isArray())
        problems.add(Problem.format("countries", "countries must be an array of country codes"));
      else if (list.size() > Market.MAX_COUNTRIES)
        problems.add(Problem.range(
            "countries", "countries must list at most " + Market.MAX_COUNTRIES + " codes"));
      else
        for (int i = 0; i < list.size(); i++) {
          JsonNode country = list.get(i);
          String where = "countries[" + i + "]";
          // a null in the list is no code: named, not dropped in silence
          var element = new Problems();
          String text = JsonFields.string(element, country, "countries[]");
          if (text != null) {
            countries.add(text);
            sentAt.add(i);
          } else if (!JsonFields.given(country))
            element.add(Problem.at(
                "countries[]", Problem.Rule.MISSING, "countries[] must be a string, got null"));
          // the sentence says countries[], the field which of them
          element
              .found()
              .forEach(problem -> problems.add(
                  new Problem(problem.kind(), problem.rule(), where, problem.message())));
        }
    }
    Boolean isDefault = JsonFields.bool(problems, node.get("default"), "default");
    Currency finalCurrency = currency;
    return problems.build(() -> {
      try {
        return new Market(
            code,
            Problems.toValidate(finalCurrency),
            Problems.toValidate(locale),
            countries,
            isDefault != null && isDefault);
      } catch (InvalidInputException refused) {
        throw InvalidInputException.of(refused.asProblems().stream()
            .map(problem -> asSent(problem, sentAt))
            .toList());
      }
    });
  }

  /** A problem of the market's {@code countries[k]}, at the place that country had when sent. */
  private static Problem asSent(Problem problem, List<Integer> sentAt) {
    Matcher kept = COUNTRY.matcher(problem.field());
    if (!kept.matches()) return problem;
    int index = Integer.parseInt(kept.group(1));
    if (index >= sentAt.size()) return problem;
    return new Problem(
        problem.kind(), problem.rule(), "countries[" + sentAt.get(index) + "]", problem.message());
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
      throw new InvalidInputException(
          Problem.format("prices", "prices must be an object of market codes to prices"));
    var problems = new Problems();
    if (object.size() > MAX_PRICES)
      throw new InvalidInputException(
          Problem.range("prices", "prices must name at most " + MAX_PRICES + " markets"));
    Map<String, BigDecimal> prices = new LinkedHashMap<>();
    for (var entry : object.properties()) {
      String field = "prices." + Problems.printable(entry.getKey());
      if (!Market.isCode(entry.getKey())) {
        problems.add(Problem.format(
            field,
            field + ": a market code is 2-16 characters of A-Z 0-9 _ starting with a letter"));
        continue;
      }
      JsonNode value = entry.getValue();
      try {
        BigDecimal price;
        if (value.isString()) price = new BigDecimal(value.stringValue());
        else if (value.isNumber()) price = value.decimalValue();
        else {
          problems.add(Problem.format(
              field,
              field + " must be a decimal such as \"12.99\", got " + JsonFields.kind(value)));
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
        problems.add(Problem.format(
            field, field + " must be a decimal such as \"12.99\", got " + JsonFields.shown(value)));
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
