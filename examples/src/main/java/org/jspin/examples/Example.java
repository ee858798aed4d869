package org.jspin.examples;

import org.jspin.mpi.MpiOptions;

/**
 * An example as its command line parsed it (sizes, iterations), runnable on threads of this JVM with
 * options the caller chooses: how {@code jspin demo} and {@code jspin compare} trace the same program
 * on many more ranks than they ran it on.
 */
public interface Example {
    /**
     * Runs the example on {@code ranks} threads of this JVM with {@code options}, without its check
     * against a serial run (a trace times the program, not the check).
     */
    void runOnThreads(int ranks, MpiOptions options);
}
