package dev.resilience.benchmarks;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.resilience.aop.IdempotencyFingerprints;
import dev.resilience.registry.JsonArgumentRenderer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default fingerprint of an idempotent call's arguments, a key and a payment request
 * (a record with a nested card, a list of three items and a map of two entries):
 * {@code sha256OfApplicationJson}, the SHA-256 of the canonical JSON the application's
 * mapper writes (the fingerprint before it was keyed and complete, the baseline), and
 * {@code hmacOfFieldValues}, today's HMAC-SHA256 over the canonical JSON of the full
 * field values, after the depth check against cycles.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FingerprintBenchmark {

    private static final char SEPARATOR = '\u001f';

    private final String key = "pay-7f3c2a10-5b1e-4c8e-9d2f-0a6b4e1c9d11";

    private final PaymentRequest request = new PaymentRequest("order-1042", 12_999, "EUR",
            new Card("4111111111111111", "12/29", "Ada Lovelace"),
            List.of(new Item("sku-1", 2, 2_999), new Item("sku-2", 1, 4_999), new Item("sku-3", 1, 2_002)),
            Map.of("channel", "web", "campaign", "winter"));

    private JsonArgumentRenderer applicationJson;

    private IdempotencyFingerprints fingerprints;

    /**
     * Builds the renderer on a default mapper and the fingerprints with a fixed secret.
     */
    @Setup
    public void setUp() {
        this.applicationJson = new JsonArgumentRenderer(JsonMapper.builder().build());
        this.fingerprints = IdempotencyFingerprints.withSecret("benchmark-secret-of-at-least-32-characters");
    }

    @Benchmark
    public String sha256OfApplicationJson() {
        MessageDigest digest = sha256();
        for (Object argument : new Object[] { this.key, this.request }) {
            digest.update(this.applicationJson.render(argument).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) SEPARATOR);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    @Benchmark
    public String hmacOfFieldValues() {
        return this.fingerprints.fingerprint(this.key, this.request);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** A payment request. */
    public record PaymentRequest(String orderId, long amountCents, String currency, Card card, List<Item> items,
            Map<String, String> metadata) {
    }

    /** A card. */
    public record Card(String number, String expiry, String holder) {
    }

    /** An item of a request. */
    public record Item(String sku, int quantity, long priceCents) {
    }

}
