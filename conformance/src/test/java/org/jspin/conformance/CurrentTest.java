package org.jspin.conformance;

import java.util.ArrayList;
import java.util.List;

import org.jspin.error.MpiException;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Which test is running, for {@link ProcessRanks}: a worker JVM finds the test by its JUnit unique
 * id, and the {@code target.run} call by its index within the test. Registered for every test of
 * the suite by auto-detection ({@code META-INF/services} and {@code junit-platform.properties} of
 * the test resources). Tests run one at a time (the suite configures no parallel execution).
 */
public final class CurrentTest implements BeforeEachCallback, AfterEachCallback {
    private static volatile Running current;

    /** The running test: its unique id and what its process-mode {@code run} calls so far gave. */
    static final class Running {
        private final String uniqueId;
        private final List<ProcessRanks.Outcome> outcomes = new ArrayList<>();

        Running(String uniqueId) {
            this.uniqueId = uniqueId;
        }

        String uniqueId() {
            return uniqueId;
        }

        /** @return the index the next call gets (the calls made so far) */
        synchronized int calls() {
            return outcomes.size();
        }

        /** @return the outcomes of the calls made so far, in call order */
        synchronized List<ProcessRanks.Outcome> outcomes() {
            return List.copyOf(outcomes);
        }

        synchronized void finished(MpiException failure) {
            outcomes.add(ProcessRanks.Outcome.of(failure));
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        current = new Running(context.getUniqueId());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        current = null;
    }

    /** @return the running test, or null outside a test method */
    static Running current() {
        return current;
    }
}
