package dev.tidings.opentime.card;

import java.util.Optional;

/**
 * What a card says, already localised: the renderer only lays it out. {@code wasPrice}, on sale, is the
 * regular price, drawn struck through beside {@code price} (then the sale price).
 */
record CardContent(Optional<String> brand, String title, String price, Optional<String> wasPrice) {
  CardContent(Optional<String> brand, String title, String price) {
    this(brand, title, price, Optional.empty());
  }
}
