/** The delivery capability's HTTP routes: campaign statistics and message histories. */
@NullMarked
package dev.tidings.web.delivery;

import org.jspecify.annotations.NullMarked;
