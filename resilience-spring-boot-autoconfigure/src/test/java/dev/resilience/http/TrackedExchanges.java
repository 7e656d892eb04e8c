package dev.resilience.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.resilience.core.time.VirtualTimeSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A filter after the resilient one that sees every attempt's exchange: whether it was
 * cancelled, and whether the body of each response it passed on was consumed or released.
 * It can make the first attempts slow on the virtual clock: it moves the clock by the
 * attempt timeout once the response has arrived, before passing it on, which is what a
 * slow server looks like to the pipeline.
 */
final class TrackedExchanges implements ExchangeFilterFunction {

    private final List<Tracked> responses = new CopyOnWriteArrayList<>();

    private final AtomicInteger cancelled = new AtomicInteger();

    private final AtomicInteger attempts = new AtomicInteger();

    private final VirtualTimeSource clock;

    private final int slowAttempts;

    private final Duration slowness;

    TrackedExchanges(VirtualTimeSource clock, int slowAttempts, Duration slowness) {
        this.clock = clock;
        this.slowAttempts = slowAttempts;
        this.slowness = slowness;
    }

    /**
     * Returns a client with the application's resilient filter first, then this one, over
     * the JDK's HTTP client.
     */
    WebClient client(AssertableApplicationContext context) {
        WebClient.Builder builder = WebClient.builder().clientConnector(new JdkClientHttpConnector());
        context.getBean(ResilientWebClientCustomizer.class).customize(builder);
        return builder.filter(this).build();
    }

    @Override
    public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
        boolean slow = this.attempts.incrementAndGet() <= this.slowAttempts;
        return next.exchange(request).map((response) -> {
            Tracked tracked = new Tracked();
            this.responses.add(tracked);
            if (slow) {
                this.clock.advance(this.slowness);
            }
            return response.mutate().body((body) -> body.doFinally((signal) -> tracked.done = true)).build();
        }).doOnCancel(this.cancelled::incrementAndGet);
    }

    List<Tracked> responses() {
        return List.copyOf(this.responses);
    }

    int cancelled() {
        return this.cancelled.get();
    }

    /** Returns how many exchanges attempts started. */
    int attempts() {
        return this.attempts.get();
    }

    /** A response passed on; done once its body was consumed, released or cancelled. */
    static final class Tracked {

        volatile boolean done;

    }

}
