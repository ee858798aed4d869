/**
 * Bootstrap under MPICH's Hydra process manager ({@code mpiexec.hydra}) through the PMI-1 wire
 * protocol: {@link org.jspin.bootstrap.pmi.Pmi1Client} speaks the newline-terminated
 * {@code key=value} commands over the descriptor Hydra hands down in {@code PMI_FD} (through
 * {@code java.lang.foreign} calls to libc, since Java cannot adopt an inherited descriptor) or over a
 * TCP connection to {@code PMI_PORT}; {@link org.jspin.bootstrap.pmi.Pmi1Exchange}
 * turns its key-value space into the {@link org.jspin.bootstrap.EndpointExchange}
 * the Netty fabric starts from.
 *
 * <p>The descriptor path calls restricted {@code java.lang.foreign} methods: run the JVM with
 * {@code --enable-native-access=ALL-UNNAMED} to keep JDK 25 from warning about it (and to keep it
 * working once the warning becomes an error).
 */
package org.jspin.bootstrap.pmi;
