/** The HTTP edge of notifications: content and its publishing, and each user's pending digest. */
@NullMarked
package dev.tidings.web.notify;

import org.jspecify.annotations.NullMarked;
