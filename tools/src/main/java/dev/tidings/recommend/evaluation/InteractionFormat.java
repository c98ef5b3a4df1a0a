package dev.tidings.recommend.evaluation;

import java.util.Locale;

/** The interaction files {@code tidings evaluate} reads. */
public enum InteractionFormat {
  /** The UCI "Online Retail" CSV (gzip or plain), cleaned as {@link OnlineRetailReader} says. */
  ONLINE_RETAIL,
  /** Tidings' own {@code events} import format, JSON Lines or CSV; purchases and add-to-cart count. */
  EVENTS;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static InteractionFormat parse(String name) {
    for (var format : values()) if (format.cliName().equals(name)) return format;
    throw new IllegalArgumentException("--format must be online-retail or events but was " + name);
  }
}
