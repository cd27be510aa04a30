package dev.benchlake.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON configuration of benchlake's files (manifests, reports): snake_case names, keys in
 * a stable order, pretty-printed, nulls omitted, unknown fields tolerated on read so that a newer
 * writer's files stay readable by an older reader.
 */
public final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST)
      .build();

  private Json() {}

  /** The shared, thread-safe mapper. Do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
