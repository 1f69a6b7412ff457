import Glibc

extension HTTPServer {
    /// Accepts connections until the stop signal is raised, then closes the listeners.
    func acceptLoop(listeners: [HTTPServerListener], stopSignal: HTTPServerStopSignal) {
        defer { listeners.forEach { $0.close() } }
        var descriptors = listeners.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        descriptors.append(pollfd(fd: stopSignal.readDescriptor, events: Int16(POLLIN), revents: 0))
        while !stopSignal.isRaised {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 else {
                if errno == EINTR { continue }
                settings.log("poll on the listening sockets failed: errno \(errno)")
                pause(Self.acceptRetryDelay)
                continue
            }
            if descriptors[listeners.count].revents != 0 { return }
            for (index, listener) in listeners.enumerated() where descriptors[index].revents != 0 {
                acceptWaiting(on: listener, stopSignal: stopSignal)
            }
        }
    }

    /// Accepts the connections waiting on a listener, up to ``maxAcceptsPerWakeup``.
    private func acceptWaiting(on listener: HTTPServerListener, stopSignal: HTTPServerStopSignal) {
        for _ in 0..<Self.maxAcceptsPerWakeup {
            switch listener.accept() {
            case .connection(let socket, let peerAddress):
                admit(socket, peerAddress: peerAddress, stopSignal: stopSignal)
            case .noneWaiting:
                return
            case .failed(let code) where code == ECONNABORTED || code == EPROTO:
                continue
            case .failed(let code):
                settings.log("accept failed: errno \(code)")
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) { pause(Self.acceptRetryDelay) }
                return
            }
        }
    }

    /// Serves a new connection on a thread of its own, dropping an idle connection for it when
    /// ``HTTPServerLimits/maxConnections`` are being served; or refuses it with 503 when
    /// ``HTTPServerLimits/maxConnectionsPerAddress`` are being served from its address, none
    /// can be dropped, or no thread can be started.
    private func admit(_ socket: HTTPServerSocket, peerAddress: String, stopSignal: HTTPServerStopSignal) {
        let counted = !limits.unlimitedAddresses.contains(peerAddress)
            && !limits.unlimitedRanges.contains { $0.contains(peerAddress) }
        let slot: HTTPServerSlot
        switch slots.admit(socket, peerAddress: peerAddress, isCountedPerAddress: counted) {
        case .admitted(let admitted, let dropped):
            logDrop(dropped)
            slot = admitted
        case .refused(let reason, let dropped):
            logDrop(dropped)
            refuseBusy(socket, reason: reason)
            return
        }
        activity.enter()
        let connection = HTTPServerConnection(
            socket: socket, peerAddress: peerAddress, slot: slot, settings: settings, stopSignal: stopSignal)
        do {
            try HTTPServerThread.start { [self] in
                var serving = connection
                serving.run()
                slot.release()
                activity.leave()
            }
        } catch {
            slot.release()
            activity.leave()
            refuseBusy(socket, reason: "no thread for the connection")
        }
    }

    /// Logs a connection dropped for a new one, without its address: how long it had waited,
    /// and whether it had sent a request.
    private func logDrop(_ drop: HTTPServerSlots.Drop?) {
        guard let drop else { return }
        let (seconds, attoseconds) = drop.waited.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let kind = drop.hadSentARequest ? "idle connection" : "connection without a request"
        settings.log("- - - \(milliseconds)ms (\(kind) dropped for a new one)")
    }

    /// Answers a connection that cannot be served with 503 and closes it, without blocking the
    /// accept loop: the answer is written only if it fits in the socket's buffer (a new
    /// connection's always does). The client's request is then read and dropped for
    /// ``refusalLingerTimeout`` on a short thread of its own, so that closing does not reset the
    /// connection before the client reads the answer; with ``maxLingeringRefusals`` already
    /// lingering, only what has arrived is dropped.
    private func refuseBusy(_ socket: HTTPServerSocket, reason: String) {
        var response = HTTPServerResponse.refusal(503)
        response.headers.append("Retry-After", "\(Self.busyRetryAfterSeconds)")
        let bytes = response.serializedHead(isHeadRequest: false, connection: "close", date: HTTPDate.now())
            + response.body
        let delivered = socket.send(bytes, progressTimeout: .zero)
        settings.log("- - 503 0ms" + (delivered ? "" : " (not delivered)") + " (\(reason))")
        let lingers = lingeringRefusals.withLock { count in
            guard count < Self.maxLingeringRefusals else { return false }
            count += 1
            return true
        }
        if lingers {
            activity.enter()
            let lingering: ()? = try? HTTPServerThread.start { [self] in
                socket.lingeringClose(deadline: .now + Self.refusalLingerTimeout, discardingAtMost: settings.limits.maxHeaderBlockSize)
                lingeringRefusals.withLock { $0 -= 1 }
                activity.leave()
            }
            if lingering != nil { return }
            lingeringRefusals.withLock { $0 -= 1 }
            activity.leave()
        }
        socket.lingeringClose(deadline: .now, discardingAtMost: HTTPServerSocket.receiveChunkSize)
    }

    /// Sleeps the accept thread.
    private func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&interval, &remaining) < 0, errno == EINTR {
            interval = remaining
        }
    }
}
