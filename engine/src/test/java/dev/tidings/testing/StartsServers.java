package dev.tidings.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A unit-phase test class that starts servers of its own: an embedded PostgreSQL, a whole node, or a
 * mail server. The quick run ({@code ./mvnw test -Pquick}) leaves such classes out, and in that run a
 * server started by an untagged class fails it with a message saying to add this annotation, so the tag
 * cannot go stale. Integration tests ({@code *IT}) need no tag: the quick run runs none.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(StartsServers.TAG)
public @interface StartsServers {
  String TAG = "servers";
}
