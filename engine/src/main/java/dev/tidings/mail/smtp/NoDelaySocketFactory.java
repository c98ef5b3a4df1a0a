package dev.tidings.mail.smtp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with Nagle's algorithm off. An SMTP client writes the message and then the short
 * end-of-data line; with Nagle on, that line waits for the server's delayed ACK of the message (40 ms
 * on Linux), which capped every connection at about 25 emails a second.
 */
final class NoDelaySocketFactory extends SocketFactory {
  private static Socket noDelay(Socket socket) throws IOException {
    socket.setTcpNoDelay(true);
    return socket;
  }

  @Override
  public Socket createSocket() throws IOException {
    return noDelay(new Socket());
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return noDelay(new Socket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return noDelay(new Socket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return noDelay(new Socket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return noDelay(new Socket(address, port, localAddress, localPort));
  }
}
