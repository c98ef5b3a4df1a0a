package dev.tidings.recommend.blend;

import dev.tidings.audience.FollowService;
import dev.tidings.audience.FollowTarget;
import dev.tidings.audience.TargetType;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The brands and categories one user follows (a user who is no subscriber follows nothing). */
public record Follows(Set<String> brands, Set<String> categories) {
  public static final Follows NONE = new Follows(Set.of(), Set.of());

  public Follows {
    brands = Set.copyOf(brands);
    categories = Set.copyOf(categories);
  }

  /** Reads every user's brand and category follows at once, streamed (a node warming its memory). */
  @FunctionalInterface
  public interface Loader {
    void forEach(Each each);

    /** One follow: a brand or a category (the other is null). */
    @FunctionalInterface
    interface Each {
      void accept(String userId, @Nullable String brand, @Nullable String category);
    }

    static Loader of(FollowService follows) {
      return each ->
          follows.forEachFollow(Set.of(TargetType.BRAND, TargetType.CATEGORY), (user, target) -> {
            if (target.type() == TargetType.BRAND) each.accept(user, target.id(), null);
            else each.accept(user, null, target.id());
          });
    }
  }

  /** Reads one user's follows: one indexed query per call. */
  @FunctionalInterface
  public interface Reader {
    Follows of(String userId);

    /** From the audience's own service: one indexed query of two columns per call. */
    static Reader of(FollowService follows) {
      return userId -> {
        var brands = new HashSet<String>();
        var categories = new HashSet<String>();
        for (FollowTarget target :
            follows.followedOf(userId, Set.of(TargetType.BRAND, TargetType.CATEGORY))) {
          (target.type() == TargetType.BRAND ? brands : categories).add(target.id());
        }
        return new Follows(brands, categories);
      };
    }
  }
}
