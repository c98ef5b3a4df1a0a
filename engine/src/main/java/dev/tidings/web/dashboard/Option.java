package dev.tidings.web.dashboard;

/** One choice of a {@code select} (or a box to tick), as a template writes it. */
record Option(String value, String label, boolean selected) {}
