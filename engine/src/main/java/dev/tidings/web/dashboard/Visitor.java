package dev.tidings.web.dashboard;

import java.util.Optional;

/**
 * Who is looking at a page: someone signed in, with the token every form on their pages carries, or
 * nobody yet (the sign-in form, a refusal).
 */
record Visitor(Optional<String> formToken) {
  static final Visitor NOBODY = new Visitor(Optional.empty());

  static Visitor signedIn(String formToken) {
    return new Visitor(Optional.of(formToken));
  }

  boolean isSignedIn() {
    return formToken.isPresent();
  }

  /** The token for a form's hidden {@value FormGuard#FIELD} field (empty when nobody is signed in). */
  String token() {
    return formToken.orElse("");
  }
}
