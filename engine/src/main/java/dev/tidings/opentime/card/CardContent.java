package dev.tidings.opentime.card;

import java.util.Optional;

/** What a card says, already localised: the renderer only lays it out. */
record CardContent(Optional<String> brand, String title, String price) {}
