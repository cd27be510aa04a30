package dev.benchlake.loadgen;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on the loopback interface between loadgen and PostgreSQL, whose network the test
 * breaks on purpose: {@link #dropAll} resets every open connection (a failover, a NAT table
 * flushed), {@link #refuse} closes the port (connection refused), {@link #blackhole} keeps
 * connections open but stops passing bytes either way (a cable pulled, a firewall that drops
 * packets: nothing but timeouts can end a wait), {@link #heal} goes back to forwarding. It only
 * ever connects to the given loopback port.
 */
final class TcpProxy implements AutoCloseable {
  private final int targetPort;
  private final int port;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private volatile ServerSocket listener;
  private volatile boolean blackhole;
  private volatile boolean closed;

  TcpProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = listen(0);
    this.port = listener.getLocalPort();
    startAccepting(listener);
  }

  int port() {
    return port;
  }

  /** Resets every open connection (SO_LINGER 0: the peer sees a reset, not an orderly close). */
  void dropAll() {
    for (Socket s : open) {
      try {
        s.setSoLinger(true, 0);
        s.close();
      } catch (IOException e) {
        // already gone
      }
    }
    open.clear();
  }

  /** Closes the listening port: new connections are refused until {@link #heal}. */
  synchronized void refuse() throws IOException {
    listener.close();
  }

  /** Open connections stay open, accepted ones too, but no byte passes. */
  void blackhole() {
    blackhole = true;
  }

  /** Forwards again (and listens again after {@link #refuse}). */
  synchronized void heal() throws IOException {
    blackhole = false;
    if (listener.isClosed()) {
      listener = listen(port);
      startAccepting(listener);
    }
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    return s;
  }

  private void startAccepting(ServerSocket server) {
    Thread accept = new Thread(() -> {
      while (!server.isClosed()) {
        try {
          Socket client = server.accept();
          Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
          open.add(client);
          open.add(upstream);
          pump(client, upstream);
          pump(upstream, client);
        } catch (IOException e) {
          // the listener was closed (refuse/close), or the server is down: the client sees a reset
        }
      }
    }, "proxy-accept-" + port);
    accept.setDaemon(true);
    accept.start();
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          while (blackhole && !from.isClosed() && !closed) {
            Thread.sleep(20);
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException e) {
        // a side went away
      } finally {
        close(from);
        close(to);
      }
    }, "proxy-pump-" + port);
    t.setDaemon(true);
    t.start();
  }

  private static void close(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    listener.close();
    dropAll();
  }
}
