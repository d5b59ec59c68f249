from dynatrace_extension import Extension, Status, StatusValue


class ExampleQueue(Extension):
    """Reports each queue's depth and consumers (a sketch: the queue server's client is left out)."""

    def query(self):
        url = self.activation_config.get("url")
        self.report_metric("example.queue.depth", 0, dimensions={"queue": url})
        self.report_metric("example.queue.consumers", 0)

    def fastcheck(self) -> Status:
        return Status(StatusValue.OK)


def main():
    ExampleQueue(name="example_queue").run()


if __name__ == "__main__":
    main()
