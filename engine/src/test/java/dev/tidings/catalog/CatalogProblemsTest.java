package dev.tidings.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tidings.InvalidInputException;
import dev.tidings.Json;
import dev.tidings.Problem;
import dev.tidings.Problem.Rule;
import dev.tidings.Problems;
import dev.tidings.imports.JsonRows;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A refused market, price list or product names each field as the client sent it, with the rule it
 * breaks, and keeps its sentence.
 */
class CatalogProblemsTest {
  private static final String PRODUCT = """
      {"id": "p1", "title": "A print", "price": %s, "currency": "%s", "salePrice": %s,
       "imageUrl": "https://shop.example/p1.jpg", "landingUrl": "https://shop.example/p1"}""";

  private static List<Problem> refused(Runnable read) {
    return catchThrowableOfType(InvalidInputException.class, read::run).asProblems();
  }

  @Test
  void each_bad_field_of_a_market_is_named_with_its_rule() {
    assertThat(refused(() -> MarketJson.fromJson("GB", Json.MAPPER.readTree("""
                {"code": "DE", "currency": "POUNDS", "locale": "@@", "default": "yes"}"""))))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("code", Rule.OTHER),
            tuple("currency", Rule.UNKNOWN),
            tuple("locale", Rule.FORMAT),
            tuple("default", Rule.FORMAT));
  }

  @Test
  void a_country_is_named_by_its_place_in_the_list_sent() {
    // the number is no code and drops out of the market's list: the unknown code is still the third
    assertThat(refused(() -> MarketJson.fromJson("GB", Json.MAPPER.readTree("""
                {"currency": "GBP", "locale": "en-GB", "countries": ["GB", 5, "XX", null]}"""))))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactlyInAnyOrder(
            tuple("countries[1]", Rule.FORMAT, "countries[] must be a string, got a number"),
            tuple("countries[3]", Rule.MISSING, "countries[] must be a string, got null"),
            tuple(
                "countries[2]",
                Rule.UNKNOWN,
                "countries must be ISO 3166-1 alpha-2 codes such as DE, got 'XX'"));
  }

  @Test
  void each_bad_price_of_a_price_list_is_named_by_its_market() {
    assertThat(refused(() -> MarketJson.pricesFromJson(Json.MAPPER.readTree("""
            {"gb": "1.00", "US": "cheap", "DE": true, "FR": "1e999999"}"""))))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("prices.gb", Rule.FORMAT),
            tuple("prices.US", Rule.FORMAT),
            tuple("prices.DE", Rule.FORMAT),
            tuple("prices.FR", Rule.RANGE));
    assertThat(refused(() -> MarketJson.pricesFromJson(Json.MAPPER.readTree("[1]"))))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("prices", Rule.FORMAT));
  }

  @Test
  void a_price_list_naming_no_market_is_refused_at_that_market() {
    var problems = new Problems();
    Markets.problems(
        Map.of("GB", Currency.getInstance("GBP")),
        Map.of("XX", new BigDecimal("1.00"), "GB", new BigDecimal("1.001")),
        problems);
    assertThat(problems.found())
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("prices.XX", Rule.UNKNOWN), tuple("prices.GB", Rule.FORMAT));
  }

  @Test
  void each_bad_field_of_a_product_is_named_with_its_rule() {
    assertThat(refused(() -> ProductJson.fromJson(
            Json.MAPPER.readTree(PRODUCT.formatted("\"cheap\"", "EUR", "null")))))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactly(
            tuple("price", Rule.FORMAT, "price must be a decimal number, got 'cheap'"));
    assertThat(refused(() ->
            ProductJson.fromJson(Json.MAPPER.readTree(PRODUCT.formatted("10", "EURO", "null")))))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("currency", Rule.UNKNOWN));
    assertThat(refused(() ->
            ProductJson.fromJson(Json.MAPPER.readTree(PRODUCT.formatted("10.005", "EUR", "12")))))
        .extracting(Problem::field, Problem::rule, Problem::message)
        .containsExactlyInAnyOrder(
            tuple(
                "price",
                Rule.FORMAT,
                "price must have at most 2 decimal places for EUR, got 10.005"),
            tuple("salePrice", Rule.RANGE, "salePrice must be below price 10.005, got 12"));
  }

  @Test
  void a_feed_item_names_its_availability_and_a_sale_price_in_another_currency() {
    assertThat(refused(() -> JsonRows.read(Json.MAPPER.readTree("""
                {"id": "p1", "title": "A print", "link": "https://shop.example/p1",
                 "imageLink": "https://shop.example/p1.jpg", "price": "15.00 USD",
                 "salePrice": "12.00 EUR", "availability": "soon"}"""), ProductFeedRows.INSTANCE)))
        .extracting(Problem::field, Problem::rule)
        .containsExactlyInAnyOrder(
            tuple("sale_price", Rule.OTHER), tuple("availability", Rule.UNKNOWN));
  }

  @Test
  void an_amount_past_the_bound_on_digits_is_a_range_problem_of_its_field() {
    assertThat(refused(() -> new Money(new BigDecimal("1e40"), Currency.getInstance("EUR"))))
        .extracting(Problem::field, Problem::rule)
        .containsExactly(tuple("amount", Rule.RANGE));
    assertThat(Money.tooManyDigits("prices.US", "1e999999").field()).isEqualTo("prices.US");
  }
}
