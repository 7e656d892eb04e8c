package dev.resilience.registry;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arguments render as canonical JSON: equal arguments alike whatever order their maps,
 * sets and objects iterate in, different arguments differently.
 */
class JsonArgumentRendererTests {

    private final JsonMapper mapper = JsonMapper.builder().build();

    private final JsonArgumentRenderer renderer = new JsonArgumentRenderer(this.mapper);

    @Test
    void equalMapsInAnotherOrderRenderAlike() {
        Map<String, Integer> inserted = new LinkedHashMap<>();
        inserted.put("sku-2", 1);
        inserted.put("sku-1", 2);
        Map<String, Integer> reversed = new TreeMap<>(Comparator.reverseOrder());
        reversed.putAll(inserted);

        assertThat(this.renderer.render(inserted)).isEqualTo("{\"sku-1\":2,\"sku-2\":1}")
            .isEqualTo(this.renderer.render(reversed))
            .isEqualTo(this.renderer.render(Map.of("sku-1", 2, "sku-2", 1)));
    }

    @Test
    void equalSetsInAnotherOrderRenderAlike() {
        Set<String> sorted = new TreeSet<>(List.of("gift", "express"));
        Set<String> inserted = new LinkedHashSet<>(List.of("gift", "express"));

        assertThat(this.renderer.render(sorted)).isEqualTo("[\"express\",\"gift\"]")
            .isEqualTo(this.renderer.render(inserted))
            .isEqualTo(this.renderer.render(Set.of("gift", "express")));
    }

    @Test
    void equalRecordsWithNestedMapsAndSetsInAnotherOrderRenderAlike() {
        Order order = new Order("o-1",
                linked("sku-1", new Line(2, Set.of("fragile", "boxed")), "sku-2", new Line(1, Set.of())),
                new LinkedHashSet<>(List.of(linked("zone", "eu", "lane", "b"), linked("zone", "us", "lane", "a"))),
                List.of(3, 1, 2));
        Order sameOrder = new Order("o-1",
                linked("sku-2", new Line(1, new HashSet<>()), "sku-1",
                        new Line(2, new TreeSet<>(List.of("boxed", "fragile")))),
                new LinkedHashSet<>(List.of(linked("lane", "a", "zone", "us"), linked("lane", "b", "zone", "eu"))),
                List.of(3, 1, 2));

        assertThat(this.renderer.render(sameOrder)).isEqualTo(this.renderer.render(order))
            .isEqualTo("{\"id\":\"o-1\",\"lines\":{\"sku-1\":{\"labels\":[\"boxed\",\"fragile\"],\"quantity\":2},"
                    + "\"sku-2\":{\"labels\":[],\"quantity\":1}},\"routes\":[{\"lane\":\"a\",\"zone\":\"us\"},"
                    + "{\"lane\":\"b\",\"zone\":\"eu\"}],\"sequence\":[3,1,2]}");
    }

    @Test
    void differentPayloadsRenderDifferently() {
        Order order = new Order("o-1", Map.of("sku-1", new Line(2, Set.of("fragile"))), Set.of(Map.of("zone", "eu")),
                List.of(1, 2));

        assertThat(this.renderer.render(order))
            .isNotEqualTo(this.renderer.render(new Order("o-1", Map.of("sku-1", new Line(3, Set.of("fragile"))),
                    Set.of(Map.of("zone", "eu")), List.of(1, 2))))
            .isNotEqualTo(this.renderer.render(new Order("o-1", Map.of("sku-1", new Line(2, Set.of("boxed"))),
                    Set.of(Map.of("zone", "eu")), List.of(1, 2))))
            .isNotEqualTo(this.renderer.render(new Order("o-1", Map.of("sku-1", new Line(2, Set.of("fragile"))),
                    Set.of(Map.of("zone", "us")), List.of(1, 2))))
            .isNotEqualTo(this.renderer.render(new Order("o-1", Map.of("sku-1", new Line(2, Set.of("fragile"))),
                    Set.of(Map.of("zone", "eu")), List.of(2, 1))));
    }

    @Test
    void listsAndArraysKeepTheirOrder() {
        assertThat(this.renderer.render(List.of("a", "b"))).isEqualTo("[\"a\",\"b\"]")
            .isNotEqualTo(this.renderer.render(List.of("b", "a")));
        assertThat(this.renderer.render(new int[] { 2, 1 })).isEqualTo("[2,1]");
    }

    @Test
    void membersOfAJsonObjectArgumentAreSorted() {
        ObjectNode inserted = this.mapper.createObjectNode().put("b", 1).put("a", 2);
        ObjectNode other = this.mapper.createObjectNode().put("a", 2).put("b", 1);

        assertThat(this.renderer.render(inserted)).isEqualTo("{\"a\":2,\"b\":1}")
            .isEqualTo(this.renderer.render(other));
    }

    @Test
    void setWithANullElementRendersAlikeInAnyOrder() {
        Set<String> first = new LinkedHashSet<>(Arrays.asList(null, "a"));
        Set<String> second = new LinkedHashSet<>(Arrays.asList("a", null));

        assertThat(this.renderer.render(first)).isEqualTo(this.renderer.render(second));
    }

    @Test
    void argumentThatCannotBeWrittenRendersAsItsTypeName() {
        assertThat(this.renderer.render(new Unwritable())).isEqualTo("<" + Unwritable.class.getName() + ">");
        assertThat(this.renderer.render(null)).isEqualTo("null");
    }

    private static <V> Map<String, V> linked(String firstKey, V firstValue, String secondKey, V secondValue) {
        Map<String, V> map = new LinkedHashMap<>();
        map.put(firstKey, firstValue);
        map.put(secondKey, secondValue);
        return map;
    }

    record Order(String id, Map<String, Line> lines, Set<Map<String, String>> routes, List<Integer> sequence) {
    }

    record Line(int quantity, Set<String> labels) {
    }

    static final class Unwritable {

        public String getValue() {
            throw new IllegalStateException("not loaded");
        }

    }

}
