/** The mail port: finished emails handed to a transport, and the MIME rendering they share. */
@NullMarked
package dev.tidings.mail;

import org.jspecify.annotations.NullMarked;
