package dev.resilience.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.resilience.sample.order.OrderState;
import dev.resilience.sample.order.OrderView;
import dev.resilience.sample.payment.PaymentResponse;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard and the Prometheus alert rules of {@code docs/} against the
 * sample's real {@code /actuator/prometheus} output after a payment and its replay: every
 * meter they query exists, with every label they match, group by or drop, and every label
 * value they match on. A renamed meter, tag or tag value fails here.
 */
@SampleApplicationTests
class DashboardAndAlertsTests {

    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "resilience-dashboard.json");

    private static final Path ALERTS = Path.of("..", "docs", "prometheus", "resilience-alerts.yml");

    private static final Pattern METRIC = Pattern.compile("\\b(?:resilience|process)_[a-z0-9_]*[a-z0-9]\\b");

    private static final Pattern SELECTOR = Pattern.compile("\\b(resilience_[a-z0-9_]*[a-z0-9])\\{([^}]*)}");

    private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(=~|=|!=|!~)\\s*\"([^\"]*)\"");

    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

    /** The labels Prometheus adds to every scraped series. */
    private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

    @LocalServerPort
    private int port;

    private PrometheusExposition scrape;

    @BeforeEach
    void payAndScrape() {
        SampleClient client = new SampleClient(this.port);
        client.reset();
        OrderView order = client.createOrder("tok_visa_4242");
        PaymentResponse paid = client.pay(order.id(), "dashboard-" + order.id()).getBody();
        PaymentResponse replayed = client.pay(order.id(), "dashboard-" + order.id()).getBody();
        assertThat(paid.state()).isEqualTo(OrderState.PAID);
        assertThat(replayed.replayed()).isTrue();
        String text = RestClient.create("http://localhost:" + this.port)
            .get()
            .uri("/actuator/prometheus")
            .retrieve()
            .body(String.class);
        this.scrape = PrometheusExposition.parse(text);
    }

    @Test
    void dashboardQueriesOnlyMetersAndLabelsTheSampleExposes() throws IOException {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            if (panel.get("type").asString().equals("row")) {
                continue;
            }
            assertThat(panel.get("datasource").get("uid").asString()).as(panel.get("title").asString())
                .isEqualTo("${DS_PROMETHEUS}");
            for (JsonNode target : panel.get("targets")) {
                expressions.add(target.get("expr").asString());
            }
        }
        JsonNode variables = dashboard.get("templating").get("list");
        List<String> variableNames = new ArrayList<>();
        variables.forEach((variable) -> variableNames.add(variable.get("name").asString()));
        assertThat(variableNames).containsExactly("DS_PROMETHEUS", "instance", "name");
        assertThat(variables.get(0).get("type").asString()).isEqualTo("datasource");
        assertThat(variables.get(2).get("definition").asString()).startsWith("label_values(").endsWith(", name)");
        for (JsonNode variable : variables) {
            if (variable.has("definition")) {
                expressions.add(variable.get("definition").asString());
            }
        }
        assertExposed(expressions);
        assertThat(metricNames(expressions)).containsExactlyInAnyOrder("resilience_calls_seconds_count",
                "resilience_calls_seconds_sum", "resilience_calls_seconds_max", "resilience_retries_total",
                "resilience_retry_budget_refused_total", "resilience_fallbacks_total",
                "resilience_circuitbreaker_state", "resilience_circuitbreaker_failure_rate",
                "resilience_circuitbreaker_calls_total", "resilience_idempotency_requests_total",
                "resilience_deadletters_total");
    }

    @Test
    void alertRulesQueryOnlyMetersAndLabelsTheSampleExposes() throws IOException {
        Map<String, List<Map<String, Object>>> file = new Yaml().load(Files.readString(ALERTS));
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Map<String, Object> group : file.get("groups")) {
            rules.addAll(rulesOf(group));
        }
        assertThat(rules).extracting((rule) -> rule.get("alert"))
            .containsExactly("ResilienceCircuitBreakerOpen", "ResilienceRetryBudgetRefusing",
                    "ResilienceDeadLettersGrowing", "ResilienceIdempotencyStoreErrors");
        List<String> expressions = new ArrayList<>();
        for (Map<String, Object> rule : rules) {
            assertThat(rule).containsKeys("for", "labels", "annotations");
            assertThat(((Map<?, ?>) rule.get("labels")).containsKey("severity")).as(rule.get("alert").toString())
                .isTrue();
            Map<?, ?> annotations = (Map<?, ?>) rule.get("annotations");
            assertThat(annotations.get("summary").toString()).contains("{{ $labels.name }}");
            assertThat(annotations.get("description").toString()).contains("{{ $labels.name }}");
            expressions.add(rule.get("expr").toString());
        }
        assertExposed(expressions);
        assertThat(metricNames(expressions)).containsExactlyInAnyOrder("resilience_circuitbreaker_state",
                "resilience_retry_budget_refused_total", "resilience_deadletters_total", "process_uptime_seconds",
                "resilience_idempotency_requests_total");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rulesOf(Map<String, Object> group) {
        return (List<Map<String, Object>>) group.get("rules");
    }

    private void assertExposed(List<String> expressions) {
        SoftAssertions softly = new SoftAssertions();
        for (String expression : expressions) {
            Set<String> metrics = metricNames(List.of(expression));
            Set<String> labels = new LinkedHashSet<>(TARGET_LABELS);
            for (String metric : metrics) {
                softly.assertThat(this.scrape.names()).as(expression).contains(metric);
                labels.addAll(this.scrape.labelNames(metric));
            }
            Matcher selector = SELECTOR.matcher(expression);
            while (selector.find()) {
                assertMatchersExposed(softly, expression, selector.group(1), selector.group(2));
            }
            Matcher grouping = GROUPING.matcher(expression);
            while (grouping.find()) {
                for (String label : grouping.group(1).split(",")) {
                    softly.assertThat(labels).as("grouping label in " + expression).contains(label.strip());
                }
            }
        }
        softly.assertAll();
    }

    private void assertMatchersExposed(SoftAssertions softly, String expression, String metric, String matchers) {
        Matcher matcher = MATCHER.matcher(matchers);
        while (matcher.find()) {
            String label = matcher.group(1);
            if (TARGET_LABELS.contains(label)) {
                continue;
            }
            softly.assertThat(this.scrape.labelNames(metric)).as(expression).contains(label);
            String value = matcher.group(3);
            if (matcher.group(2).startsWith("=") && value.matches("[a-z_|]+")) {
                softly.assertThat(this.scrape.labelValues(metric, label))
                    .as("values of " + label + " in " + expression)
                    .containsAll(Arrays.asList(value.split("\\|")));
            }
        }
    }

    private static Set<String> metricNames(List<String> expressions) {
        Set<String> names = new LinkedHashSet<>();
        for (String expression : expressions) {
            Matcher metric = METRIC.matcher(expression);
            while (metric.find()) {
                names.add(metric.group());
            }
        }
        return names;
    }

}
