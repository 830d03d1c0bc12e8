"""A netmend A2A server with the trivial echo responder, for process-level tests.

``python echo_server.py`` binds a free loopback port, prints it on one line
and serves until terminated.
"""


from serve_helpers import echo

from netmend.serve import bind, make_app, serve

if __name__ == "__main__":
    sock = bind("127.0.0.1", 0)
    print(sock.getsockname()[1], flush=True)
    serve(make_app(echo), sock)
