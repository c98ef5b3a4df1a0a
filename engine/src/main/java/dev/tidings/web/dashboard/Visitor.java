package dev.tidings.web.dashboard;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * Who is looking at a page: someone signed in, with the token every form on their pages carries, or
 * nobody yet (the sign-in form, a refusal); and the time zone they read and type times in.
 */
record Visitor(Optional<String> formToken, ZoneId zone) {
  static final Visitor NOBODY = new Visitor(Optional.empty(), ZoneOffset.UTC);

  static Visitor signedIn(String formToken) {
    return new Visitor(Optional.of(formToken), ZoneOffset.UTC);
  }

  /** The same visitor reading times in {@code zone}. */
  Visitor inZone(ZoneId zone) {
    return new Visitor(formToken, zone);
  }

  boolean isSignedIn() {
    return formToken.isPresent();
  }

  /** The token for a form's hidden {@value FormGuard#FIELD} field (empty when nobody is signed in). */
  String token() {
    return formToken.orElse("");
  }
}
