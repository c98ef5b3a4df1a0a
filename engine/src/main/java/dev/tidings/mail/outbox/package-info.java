/** The embedded mail transport: every email an {@code .eml} file in an outbox directory. */
@NullMarked
package dev.tidings.mail.outbox;

import org.jspecify.annotations.NullMarked;
