package dev.tidings.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class SampleImagesTest {
  @Test
  void png_decodes_to_the_requested_size() throws IOException {
    var image = ImageIO.read(new ByteArrayInputStream(SampleImages.png("p-42", 320, 240)));
    assertThat(image).isNotNull();
    assertThat(image.getWidth()).isEqualTo(320);
    assertThat(image.getHeight()).isEqualTo(240);
  }

  @Test
  void the_same_id_draws_the_same_picture_and_other_ids_other_colours() throws IOException {
    assertThat(SampleImages.png("p-42", 200, 200)).isEqualTo(SampleImages.png("p-42", 200, 200));
    var a = ImageIO.read(new ByteArrayInputStream(SampleImages.png("p-42", 64, 64)));
    var b = ImageIO.read(new ByteArrayInputStream(SampleImages.png("p-43", 64, 64)));
    assertThat(a.getRGB(3, 3)).isNotEqualTo(b.getRGB(3, 3)); // background colour comes from the id
  }

  @Test
  void initials_come_from_the_first_two_words() {
    assertThat(SampleImages.initials("Relaxed Linen Shirt in Sage")).isEqualTo("RL");
    assertThat(SampleImages.initials("p-123")).isEqualTo("P1");
    assertThat(SampleImages.initials("—")).isEmpty();
  }

  @Test
  void absurd_sizes_are_refused() {
    assertThatIllegalArgumentException().isThrownBy(() -> SampleImages.png("p-1", 0, 10));
    assertThatIllegalArgumentException().isThrownBy(() -> SampleImages.png("p-1", 10, 100_000));
  }
}
