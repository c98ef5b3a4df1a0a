/** The email-facing open-time routes: slot images, slot clicks, the open pixel. */
@NullMarked
package dev.tidings.web.opentime;

import org.jspecify.annotations.NullMarked;
