package dev.tidings.web.sample;

import dev.tidings.sample.SampleImages;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import java.util.regex.Pattern;

/**
 * {@code GET /sample/images/{id}.png}: the sample shop's product pictures, drawn on request (there is
 * no internet to fetch real ones from). Public, like any shop's product images, and cacheable for good.
 */
public final class SampleImageRoutes implements RouteGroup {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get("/sample/images/{file}", (request, response) -> {
      String file = request.path().pathParameters().get("file");
      if (!file.endsWith(".png")
          || !ID.matcher(file.substring(0, file.length() - 4)).matches()) {
        throw ApiProblem.notFound("no sample image named " + file);
      }
      byte[] png = SampleImages.png(file.substring(0, file.length() - 4), 400, 400);
      response.header(HeaderNames.CONTENT_TYPE, "image/png");
      response.header(HeaderNames.CACHE_CONTROL, "public, max-age=31536000, immutable");
      response.send(png);
    });
  }
}
