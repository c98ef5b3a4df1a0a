package dev.tidings.web.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.catalog.Market;
import dev.tidings.catalog.Markets;
import dev.tidings.catalog.Product;
import java.math.BigDecimal;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

class ProductCardsTest {
  private static final Currency EUR = Currency.getInstance("EUR");
  private static final Currency GBP = Currency.getInstance("GBP");

  private static Product boots() {
    return new Product(
            "boots",
            "Boots",
            Optional.of("Velin"),
            Optional.empty(),
            new BigDecimal("89.00"),
            EUR,
            WebUrl.of("https://img.shop.example/boots.jpg"),
            WebUrl.of("https://shop.example/boots"),
            true,
            Map.of())
        .withSalePrice(Optional.of(new BigDecimal("69.00")));
  }

  @Test
  void a_product_on_sale_shows_its_sale_price_with_the_regular_one_struck_through() {
    var de = new Market("DE", EUR, Locale.GERMANY, List.of("DE"), true);
    var asSold = Markets.priced(boots(), de, new BigDecimal("89.00"));

    var html = ProductCards.render(List.of("boots"), List.of(Optional.of(asSold)), de.locale());

    var price = Jsoup.parse(html).select("p.price");
    assertThat(price.select("s").text()).isEqualTo("89,00 €");
    assertThat(price.text()).isEqualTo("89,00 € 69,00 €");
  }

  @Test
  void a_product_shows_the_price_of_the_subscribers_market_in_its_locale() {
    var gb = new Market("GB", GBP, Locale.UK, List.of("GB"), false);
    // the market's own price list: no sale of its own
    var asSold = Markets.priced(boots(), gb, new BigDecimal("79.00"));

    var card = ProductCards.of(List.of("boots"), List.of(Optional.of(asSold)), gb.locale())
        .cards()
        .getFirst();

    assertThat(card.price()).isEqualTo("£79.00");
    assertThat(card.was()).isEmpty();
  }

  @Test
  void a_slot_whose_product_is_not_sold_says_so_by_its_id() {
    var card = ProductCards.of(List.of("gone"), List.of(Optional.empty()), Locale.UK)
        .cards()
        .getFirst();

    assertThat(card.missing()).isTrue();
    assertThat(card.id()).isEqualTo("gone");
  }
}
