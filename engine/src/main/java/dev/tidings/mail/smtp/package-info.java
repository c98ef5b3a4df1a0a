/** The production mail transport: an SMTP server through a pool of Angus Mail connections. */
@NullMarked
package dev.tidings.mail.smtp;

import org.jspecify.annotations.NullMarked;
