/**
 * What a campaign editor offers besides the definition itself: starter templates kept with Tidings,
 * snippets of template (slots, digest, button, unsubscribe footer) that would otherwise be written by
 * hand, a preview that says what an email's slots would show, and test sends counted in no funnel.
 */
@NullMarked
package dev.tidings.campaign.editor;

import org.jspecify.annotations.NullMarked;
