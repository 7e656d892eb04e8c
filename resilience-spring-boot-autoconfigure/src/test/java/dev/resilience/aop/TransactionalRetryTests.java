package dev.resilience.aop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.resilience.annotation.Retryable;
import dev.resilience.core.time.VirtualTimeSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = TransactionalRetryTests.TestApplication.class,
        properties = "spring.datasource.url=jdbc:h2:mem:ledger;DB_CLOSE_DELAY=-1")
class TransactionalRetryTests {

    @Autowired
    private LedgerService ledger;

    @Autowired
    private JdbcTemplate jdbc;

    @Test
    void everyAttemptRunsInItsOwnTransactionSoFailedAttemptsLeaveNothingBehind() {
        this.ledger.record("payment-1", 2);

        assertThat(this.ledger.attempts()).isEqualTo(3);
        assertThat(this.ledger.transactionsSeen()).hasSize(3).doesNotHaveDuplicates().doesNotContainNull();
        assertThat(this.jdbc.queryForList("select entry from ledger", String.class)).containsExactly("payment-1");
    }

    static class LedgerService {

        private final JdbcTemplate jdbc;

        private final DataSource dataSource;

        private final AtomicInteger attempts = new AtomicInteger();

        private final List<Object> transactionsSeen = Collections.synchronizedList(new ArrayList<>());

        LedgerService(JdbcTemplate jdbc, DataSource dataSource) {
            this.jdbc = jdbc;
            this.dataSource = dataSource;
            jdbc.execute("create table if not exists ledger (entry varchar(64))");
        }

        @Transactional
        @Retryable(value = "ledger", maxAttempts = 3, delay = "10ms")
        public void record(String entry, int failuresBeforeSuccess) {
            this.transactionsSeen.add(TransactionSynchronizationManager.getResource(this.dataSource));
            this.jdbc.update("insert into ledger (entry) values (?)", entry);
            if (this.attempts.incrementAndGet() <= failuresBeforeSuccess) {
                throw new TransientDataAccessResourceException("connection reset");
            }
        }

        int attempts() {
            return this.attempts.get();
        }

        List<Object> transactionsSeen() {
            return List.copyOf(this.transactionsSeen);
        }

    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TestApplication {

        @Bean
        VirtualTimeSource virtualTimeSource() {
            return new VirtualTimeSource();
        }

        @Bean
        LedgerService ledgerService(JdbcTemplate jdbc, DataSource dataSource) {
            return new LedgerService(jdbc, dataSource);
        }

    }

}
