import RoadbookCLI

