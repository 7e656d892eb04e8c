package dev.resilience.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.client.ClientRequest;

/**
 * The body of a {@code WebClient} request that may be sent more than once: the first
 * attempt that writes it whole keeps its bytes, and the headers its writer set (a
 * multipart boundary, a length), and every later attempt sends those again, so that a
 * body whose publisher can be read only once (an {@code InputStream}, a hot {@code Flux})
 * is not sent empty or cut. Until an attempt has written it whole, each attempt writes it
 * with the request's own inserter. The bytes are kept in memory for the call, as a
 * {@code RestClient} keeps its body. Thread-safe.
 */
final class ReplayedBody {

    private final BodyInserter<?, ? super ClientHttpRequest> inserter;

    private volatile @Nullable Written written;

    private ReplayedBody(BodyInserter<?, ? super ClientHttpRequest> inserter) {
        this.inserter = inserter;
    }

    /**
     * Returns the request with a body that every attempt sends the same.
     * @param request the request
     * @return a copy of the request whose body is kept once written whole
     */
    static ClientRequest of(ClientRequest request) {
        ReplayedBody body = new ReplayedBody(request.body());
        return ClientRequest.from(request).body(body::insert).build();
    }

    private Mono<Void> insert(ClientHttpRequest message, BodyInserter.Context context) {
        Written whole = this.written;
        if (whole == null) {
            return this.inserter.insert(new Recorder(message), context);
        }
        HttpHeaders headers = message.getHeaders();
        whole.headers().forEach((name, values) -> {
            if (!headers.containsHeader(name)) {
                headers.put(name, values);
            }
        });
        return message.writeWith(Mono.fromSupplier(() -> message.bufferFactory().wrap(whole.bytes())));
    }

    /**
     * A body written whole, with the headers its writer set.
     *
     * @param headers the headers set by the body's writer
     * @param bytes the body
     */
    private record Written(HttpHeaders headers, byte[] bytes) {
    }

    /**
     * The request of an attempt, which keeps a copy of what is written to it.
     */
    private final class Recorder extends ClientHttpRequestDecorator {

        private final Set<String> headersBefore = new HashSet<>();

        Recorder(ClientHttpRequest delegate) {
            super(delegate);
            delegate.getHeaders()
                .headerNames()
                .forEach((name) -> this.headersBefore.add(name.toLowerCase(Locale.ROOT)));
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            HttpHeaders added = new HttpHeaders();
            getHeaders().forEach((name, values) -> {
                if (!this.headersBefore.contains(name.toLowerCase(Locale.ROOT))) {
                    added.put(name, values);
                }
            });
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            return super.writeWith(Flux.from(body).doOnNext((buffer) -> copy(buffer, bytes)).doOnComplete(() -> {
                if (ReplayedBody.this.written == null) {
                    ReplayedBody.this.written = new Written(added, bytes.toByteArray());
                }
            }));
        }

        private static void copy(DataBuffer buffer, ByteArrayOutputStream bytes) {
            byte[] chunk = new byte[buffer.readableByteCount()];
            buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(chunk), 0, chunk.length);
            bytes.writeBytes(chunk);
        }

    }

}
