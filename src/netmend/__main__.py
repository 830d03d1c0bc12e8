from netmend.cli import main

main()
