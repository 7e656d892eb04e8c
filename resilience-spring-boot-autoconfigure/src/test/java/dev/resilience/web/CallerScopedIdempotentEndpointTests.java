package dev.resilience.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.resilience.annotation.Idempotent;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.WebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Idempotency keys belong to the authenticated caller: another caller who sends the same
 * key reaches an entry of their own, so neither a replay of the first caller's response
 * nor a 422 telling that the key is in use reaches them.
 */
@SpringBootTest(classes = CallerScopedIdempotentEndpointTests.TestApplication.class)
class CallerScopedIdempotentEndpointTests {

    private static final String BOOK = "{\"item\":\"book\"}";

    private static final String PEN = "{\"item\":\"pen\"}";

    @Autowired
    private WebApplicationContext context;

    @Autowired
    private OrderTestController controller;

    private MockMvc mvc;

    @BeforeEach
    void setUp() {
        this.controller.reset();
        this.mvc = MockMvcBuilders.webAppContextSetup(this.context).apply(springSecurity()).build();
    }

    @Test
    void anotherCallerWithTheSameKeyAndBodyRunsTheirOwnCall() throws Exception {
        this.mvc.perform(order("alice", "k-123", BOOK)).andExpect(status().isCreated());

        this.mvc.perform(order("mallory", "k-123", BOOK))
            .andExpect(status().isCreated())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
            .andExpect(jsonPath("$.id").value("o-2"));
        assertThat(this.controller.runs()).isEqualTo(2);
    }

    @Test
    void anotherCallerWithTheSameKeyAndAnotherBodyIsNoMismatch() throws Exception {
        this.mvc.perform(order("alice", "k-124", BOOK)).andExpect(status().isCreated());

        this.mvc.perform(order("mallory", "k-124", PEN))
            .andExpect(status().isCreated())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER))
            .andExpect(jsonPath("$.item").value("pen"));
        assertThat(this.controller.runs()).isEqualTo(2);
    }

    @Test
    void sameCallerWithTheSameKeyReplays() throws Exception {
        this.mvc.perform(order("alice", "k-125", BOOK)).andExpect(status().isCreated());

        this.mvc.perform(order("alice", "k-125", BOOK))
            .andExpect(status().isCreated())
            .andExpect(header().string(IdempotentReplayHeaderListener.HEADER, "true"))
            .andExpect(jsonPath("$.id").value("o-1"));
        assertThat(this.controller.runs()).isEqualTo(1);
    }

    @Test
    void sameCallerWithTheSameKeyAndAnotherWriteOnlyCardNumberIsUnprocessable() throws Exception {
        this.mvc.perform(card("alice", "k-9", "4111111111111111")).andExpect(status().isCreated());

        this.mvc.perform(card("alice", "k-9", "5500000000000004"))
            .andExpect(status().isUnprocessableContent())
            .andExpect(header().doesNotExist(IdempotentReplayHeaderListener.HEADER));
    }

    private static MockHttpServletRequestBuilder order(String user, String key, String body) {
        return post("/orders").with(httpBasic(user, "password"))
            .header("Idempotency-Key", key)
            .contentType(MediaType.APPLICATION_JSON)
            .content(body);
    }

    private static MockHttpServletRequestBuilder card(String user, String key, String number) {
        return post("/cards").with(httpBasic(user, "password"))
            .header("Idempotency-Key", key)
            .contentType(MediaType.APPLICATION_JSON)
            .content("{\"holder\":\"" + user + "\",\"number\":\"" + number + "\"}");
    }

    /**
     * A card whose number is read from requests but never written into responses.
     *
     * @param holder the card holder
     * @param number the card number
     */
    public record CardRequest(String holder, @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) String number) {
    }

    @RestController
    static class CardController {

        @PostMapping("/cards")
        @Idempotent(key = "#key")
        @ResponseStatus(HttpStatus.CREATED)
        public CardRequest add(@RequestHeader("Idempotency-Key") String key, @RequestBody CardRequest card) {
            return card;
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableWebSecurity
    @Import({ OrderTestController.class, CardController.class })
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) {
            return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                .csrf((csrf) -> csrf.disable())
                .build();
        }

        @Bean
        InMemoryUserDetailsManager users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("alice").password("{noop}password").roles("USER").build(),
                    User.withUsername("mallory").password("{noop}password").roles("USER").build());
        }

    }

}
