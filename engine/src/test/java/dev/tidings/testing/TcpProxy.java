package dev.tidings.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A TCP proxy (NetCrusher) between a client under test and a shared server, on a spare local port. A
 * fault test cuts it to give the client a dead server while the server itself stays up for everyone
 * else on the machine.
 */
public final class TcpProxy implements AutoCloseable {
  private final NioReactor reactor;
  private final TcpCrusher crusher;
  private final int port;

  private TcpProxy(NioReactor reactor, TcpCrusher crusher, int port) {
    this.reactor = reactor;
    this.crusher = crusher;
    this.port = port;
  }

  /** Listens on a spare port of 127.0.0.1 and forwards every connection to {@code host:targetPort}. */
  public static TcpProxy to(String host, int targetPort) {
    NioReactor reactor;
    try {
      reactor = new NioReactor();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      int port = PrivateRedis.freePort();
      TcpCrusher crusher = TcpCrusherBuilder.builder()
          .withReactor(reactor)
          .withBindAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
          .withConnectAddress(host, targetPort)
          .buildAndOpen();
      return new TcpProxy(reactor, crusher, port);
    } catch (RuntimeException e) {
      reactor.close();
      throw e;
    }
  }

  public int port() {
    return port;
  }

  /** Drops every connection and refuses new ones, as a server that went away does. */
  public void cut() {
    crusher.close();
  }

  /** Accepts connections again, on the same port. */
  public void restore() {
    crusher.open();
  }

  /** Connections stay open but no byte passes either way, as with a hung server or a dead network path. */
  public void freeze() {
    crusher.freeze();
  }

  public void unfreeze() {
    crusher.unfreeze();
  }

  @Override
  public void close() {
    try {
      if (crusher.isOpen()) crusher.close();
    } finally {
      reactor.close();
    }
  }
}
