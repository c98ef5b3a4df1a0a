package dev.tidings.campaign.editor;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Objects;

/** A product an email's open-time slot would show, as the editor lists it. */
public record SlotProduct(
    String id, String title, BigDecimal price, Currency currency, String imageUrl) {
  public SlotProduct {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(imageUrl, "imageUrl");
  }
}
