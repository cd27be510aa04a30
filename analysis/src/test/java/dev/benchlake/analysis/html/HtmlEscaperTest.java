package dev.benchlake.analysis.html;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlEscaperTest {
  @Test
  void escapesMarkupAndShowsControlCharactersAsEscapes() {
    assertThat(HtmlEscaper.INSTANCE.escape("<b a=\"1\">&'`</b>")).isEqualTo("&lt;b a&#x3D;&quot;1&quot;&gt;&amp;&#39;&#x60;&lt;/b&gt;");
    assertThat(HtmlEscaper.INSTANCE.escape("a\u0000b\u001b[31m\u007f\u2028")).isEqualTo("a\\u0000b\\u001b[31m\\u007f\\u2028");
    assertThat(HtmlEscaper.INSTANCE.escape("tab\tcr\rlf\n")).isEqualTo("tab\tcr\rlf\n");
    String plain = "point-select";
    assertThat(HtmlEscaper.INSTANCE.escape(plain)).isSameAs(plain);
  }
}
