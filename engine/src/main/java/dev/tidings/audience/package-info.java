/** The audience: subscribers, what they follow, their consent, and the addresses never to mail. */
@NullMarked
package dev.tidings.audience;

import org.jspecify.annotations.NullMarked;
