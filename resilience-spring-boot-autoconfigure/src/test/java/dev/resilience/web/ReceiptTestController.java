package dev.resilience.web;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.annotation.Idempotent;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * An idempotent endpoint whose response Spring MVC writes as bytes but no JSON mapper can
 * write: a generated receipt document. Counts how often its body runs.
 */
@RestController
public class ReceiptTestController {

    private final AtomicInteger runs = new AtomicInteger();

    @PostMapping("/receipts")
    @Idempotent(key = "#key")
    public ResponseEntity<Resource> issue(@RequestHeader("Idempotency-Key") String key) {
        int run = this.runs.incrementAndGet();
        byte[] document = ("%PDF receipt " + run).getBytes(StandardCharsets.US_ASCII);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_PDF).body(new ByteArrayResource(document));
    }

    int runs() {
        return this.runs.get();
    }

}
