package dev.resilience.actuate.endpoint;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A web application with Spring Security: every request is let through, HTTP Basic
 * authenticates {@code operator} (role {@code OPERATOR}) and {@code viewer} (role
 * {@code VIEWER}); a virtual clock; and calls that always fail with arguments holding
 * secrets.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableWebSecurity
class SecuredDeadLettersTestApplication {

    @Bean
    VirtualTimeSource resilienceTimeSource() {
        return new VirtualTimeSource();
    }

    @Bean
    Checkout checkout() {
        return new Checkout();
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
            .httpBasic(Customizer.withDefaults())
            .csrf((csrf) -> csrf.disable())
            .build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("operator").password("{noop}operator-pw").roles("OPERATOR").build(),
                User.withUsername("viewer").password("{noop}viewer-pw").roles("VIEWER").build());
    }

    static class Checkout {

        @Retryable("checkout")
        public String pay(Payment payment) {
            throw new IllegalStateException("gateway down");
        }

        @Retryable("checkout")
        public String remark(String text) {
            throw new IllegalStateException("notes down");
        }

    }

    record Payment(String orderId, String password, Card card, Customer customer) {
    }

    record Card(String number, String holder) {
    }

    record Customer(String name, String apiToken) {
    }

}
