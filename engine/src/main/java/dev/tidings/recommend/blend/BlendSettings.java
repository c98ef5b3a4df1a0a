package dev.tidings.recommend.blend;

import java.util.ArrayList;
import java.util.List;

/**
 * What the blender does with the merged candidates.
 *
 * @param excludeBought whether products the user bought are left out (a fashion shop) or kept (a
 *     replenishment shop, where buying again is the point)
 * @param brandCap most places one brand takes in an answer while other products can take them
 * @param categoryCap most places one category takes in an answer while other products can take them
 */
public record BlendSettings(boolean excludeBought, int brandCap, int categoryCap) {
  public static final int MAX_CAP = 50;
  public static final BlendSettings DEFAULTS = new BlendSettings(false, 3, 4);

  public List<String> problems() {
    var problems = new ArrayList<String>();
    if (brandCap < 1 || brandCap > MAX_CAP)
      problems.add("brandCap must be within 1.." + MAX_CAP + " but was " + brandCap);
    if (categoryCap < 1 || categoryCap > MAX_CAP)
      problems.add("categoryCap must be within 1.." + MAX_CAP + " but was " + categoryCap);
    return problems;
  }
}
