package org.jspin.bootstrap.pmi;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspin.error.MpiException;

/**
 * One rank under {@code mpiexec.hydra}, started by {@link PmiHydraTest}: connects through whatever
 * PMI-1 transport Hydra offers, exchanges a made-up endpoint and prints what it saw.
 * With the argument {@code abort}, rank 1 aborts the job instead with exit code 7.
 */
public final class HydraRankMain {
    private HydraRankMain() {
    }

    /** @param args {@code exchange} (the default) or {@code abort} */
    public static void main(String[] args) throws InterruptedException {
        String mode = args.length > 0 ? args[0] : "exchange";
        Map<String, String> env = System.getenv();
        String transport = env.containsKey("PMI_FD") ? "fd" : env.containsKey("PMI_PORT") ? "port" : "none";
        Duration timeout = Duration.ofSeconds(20);
        try (Pmi1Client client = Pmi1Client.connect(env, timeout)) {
            if (mode.equals("abort")) {
                if (client.rank() == 1) {
                    client.abort(7, "HydraRankMain was asked to abort");
                    Thread.sleep(20_000); // Hydra kills the job; reaching the exit below is a failure
                    System.exit(3);
                }
                client.barrier(timeout); // rank 1 never arrives; Hydra kills this rank when it aborts
                System.exit(4);
            }
            int rank = client.rank();
            List<String> endpoints = new Pmi1Exchange(client).exchange(rank, "127.0.0.1:" + (40000 + rank), timeout);
            System.out.println("PMI-RESULT rank=" + rank + " size=" + client.size() + " transport=" + transport
                    + " endpoints=" + String.join(",", endpoints));
            System.out.flush();
            client.finalizeJob();
        } catch (MpiException e) {
            System.out.println("PMI-FAILURE transport=" + transport + " " + e.getMessage());
            e.printStackTrace(System.out);
            System.exit(2);
        }
    }
}
