/**
 * Product cards for the open-time image slots: a fixed-size PNG showing a product's picture, brand,
 * title and a price in the subscriber's locale. Mail clients and their image proxies cache what they
 * get, errors included, so every request gets a 200 PNG: a product whose picture cannot be fetched
 * gets a card without it, an unknown product gets the {@link dev.tidings.opentime.card.ProductCards#generic()
 * generic} card. {@link dev.tidings.opentime.card.ProductCards} is the only entry point.
 */
@NullMarked
package dev.tidings.opentime.card;

import org.jspecify.annotations.NullMarked;
