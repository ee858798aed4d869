package org.jspin.bootstrap.rendezvous;

import java.net.Socket;

/**
 * A rank whose hello a {@link RendezvousServer} accepted: its connection stays open until the list
 * (or an error) is sent.
 *
 * @param rank     the rank
 * @param endpoint its endpoint
 * @param socket   its connection
 */
record Registration(int rank, String endpoint, Socket socket) {
}
